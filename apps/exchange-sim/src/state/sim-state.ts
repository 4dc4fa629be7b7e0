import { FaultSwitchboard, type FaultCounts } from '../faults/fault-switchboard.js';
import type { BudgetOptions } from '../limits/budget-config.js';
import { type RateLimitEntry, WeightBudgets, type WeightStats } from '../limits/weight-budgets.js';
import { PriceFeed } from '../market/price-feed.js';
import { buildAccountData } from '../seed/account-data-builder.js';
import { TradingDesk } from '../trading/trading-desk.js';
import type { SimAccountSeed } from '../sim-accounts.js';
import type { Clock } from '../sim-clock.js';
import type { AiLogUploadRecord } from './ai-log-upload-record.js';
import { SimAccount } from './sim-account.js';

/** What `GET /__sim/stats` answers. */
export interface SimStats {
  uploads: number;
  uploadsByUid: Record<string, number>;
  rejections: number;
  /** Keyed by the code the client saw: `-1140` on v3 paths, `40020` on v2 paths. */
  rejectionsByCode: Record<string, number>;
  /** Faults injected so far, by kind. */
  faults: FaultCounts;
  /** Weight charged and requests refused with 429, per caller IP and per UID. */
  weight: WeightStats;
}

/** Weight budgets and fault injection: see `SimulatorOptions`. */
export interface SimTrafficOptions {
  clock?: Clock;
  seed?: number;
  budgets?: BudgetOptions;
  /** Orders and plan orders (by uid) that follow the simulated price, as a saved state names them. */
  live?: Record<string, { orders: bigint[]; plans: bigint[] }>;
}

/** IDs grow with time at this many per millisecond, like the generated ones (seed-context.ts). */
const IDS_PER_MS = 418_000n;

export type NewUpload = Omit<AiLogUploadRecord, 'seq' | 'uid' | 'apiKey'>;

/** The simulator's whole state: its accounts (each holding its own data) and the count of rejected requests. */
export class SimState {
  private readonly byUid = new Map<string, SimAccount>();
  private readonly byApiKey = new Map<string, SimAccount>();
  private readonly rejectionCounts = new Map<string, number>();
  private lastSeq = 0;
  private lastId = 0n;
  private readonly listeners: Array<() => void> = [];
  /** Faults switched on and off at run time (`/__sim/faults`). */
  readonly faults: FaultSwitchboard;
  /** Per-IP and per-UID request weight budgets (`/__sim/budgets`). */
  readonly budgets: WeightBudgets;
  /** The simulated last price of every symbol, a function of the seed and the time. */
  readonly prices: PriceFeed;
  /** Fills and triggers the orders placed through the trading endpoints. */
  readonly desk: TradingDesk;

  constructor(seeds: readonly SimAccountSeed[], traffic: SimTrafficOptions = {}) {
    this.faults = new FaultSwitchboard(traffic.clock ?? Date.now, traffic.seed);
    this.prices = new PriceFeed(traffic.seed);
    this.desk = new TradingDesk({ prices: this.prices, newId: (time) => this.newId(time), changed: () => this.changed() });
    this.budgets = new WeightBudgets(traffic.clock ?? Date.now, traffic.budgets);
    for (const seed of seeds) {
      if (this.byUid.has(seed.uid)) throw new Error(`duplicate simulator account uid ${seed.uid}`);
      if (this.byApiKey.has(seed.apiKey)) throw new Error(`duplicate simulator api key for uid ${seed.uid}`);
      // The clock at start anchors the generated history ("the last 120 days").
      const account = new SimAccount(seed, buildAccountData(seed.uid, (traffic.clock ?? Date.now)(), seed.data, seed.extraOrders));
      const live = traffic.live?.[seed.uid];
      for (const id of live?.orders ?? []) account.live.orders.add(id);
      for (const id of live?.plans ?? []) account.live.plans.add(id);
      this.byUid.set(account.uid, account);
      this.byApiKey.set(account.apiKey, account);
    }
  }

  /** A new 64-bit ID for a record made at `time`: larger than every ID the simulator holds, and near time × 418 000. */
  newId(time: number): bigint {
    if (this.lastId === 0n) this.lastId = maxId(this.accounts);
    const next = BigInt(time) * IDS_PER_MS;
    this.lastId = next > this.lastId ? next : this.lastId + 1n;
    return this.lastId;
  }

  /** Calls `listener` after every change of an account's orders, fills or positions (the sandbox saves its state). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  get accounts(): SimAccount[] {
    return [...this.byUid.values()];
  }

  account(uid: string): SimAccount | undefined {
    return this.byUid.get(uid);
  }

  accountByApiKey(apiKey: string): SimAccount | undefined {
    return this.byApiKey.get(apiKey);
  }

  recordUpload(account: SimAccount, upload: NewUpload): AiLogUploadRecord {
    const record = { seq: ++this.lastSeq, ...upload, uid: account.uid, apiKey: account.apiKey };
    account.uploads.push(record);
    return record;
  }

  /** Accepted uploads in order of acceptance, of one account or of all. */
  uploads(uid?: string): AiLogUploadRecord[] {
    const accounts = uid === undefined ? this.accounts : [this.byUid.get(uid)].filter((a) => a !== undefined);
    return accounts.flatMap((a) => a.uploads).sort((a, b) => a.seq - b.seq);
  }

  /** Forgets every recorded upload; returns how many there were. */
  clearUploads(): number {
    let cleared = 0;
    for (const account of this.byUid.values()) cleared += account.uploads.splice(0).length;
    return cleared;
  }

  /** The budgets in force as exchangeInfo's `rateLimits[]`: the IP budget, then the default UID budget. */
  get rateLimits(): RateLimitEntry[] {
    return this.budgets.rateLimits;
  }

  recordRejection(code: string): void {
    this.rejectionCounts.set(code, (this.rejectionCounts.get(code) ?? 0) + 1);
  }

  stats(): SimStats {
    const uploadsByUid = Object.fromEntries(this.accounts.map((a) => [a.uid, a.uploads.length]));
    const rejectionsByCode = Object.fromEntries(this.rejectionCounts);
    return {
      uploads: sum(Object.values(uploadsByUid)),
      uploadsByUid,
      rejections: sum(Object.values(rejectionsByCode)),
      rejectionsByCode,
      faults: this.faults.counts(),
      weight: this.budgets.stats(),
    };
  }
}

function maxId(accounts: readonly SimAccount[]): bigint {
  let max = 0n;
  const see = (id: bigint | number | string) => {
    const value = BigInt(id);
    if (value > max) max = value;
  };
  for (const { data } of accounts) {
    data.orders.forEach((o) => see(o.orderId));
    data.planOrders.forEach((p) => see(p.algoId));
    data.trades.forEach((t) => see(t.id));
    data.positions.forEach((p) => see(p.id));
    data.income.forEach((i) => see(i.billId));
  }
  return max;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
