import type { SimAccountSeed } from '../sim-accounts.js';
import type { AccountData } from './account-data.js';
import type { AiLogUploadRecord } from './ai-log-upload-record.js';

/** Everything the simulator holds for one account: credentials and the account's own data. */
export class SimAccount {
  readonly uid: string;
  readonly apiKey: string;
  readonly secret: string;
  readonly passphrase: string;
  readonly aiLogAllowlisted: boolean;
  readonly uploads: AiLogUploadRecord[] = [];
  /**
   * Orders and plan orders placed through the trading endpoints that can still fill or trigger: only these follow the
   * simulated price (generated open orders stay as generated, so scenarios stay put).
   */
  readonly live = { orders: new Set<bigint>(), plans: new Set<bigint>() };

  constructor(
    seed: SimAccountSeed,
    /** Positions, orders, trades, bills...: what the query endpoints serve and the cancel endpoints change. */
    readonly data: AccountData,
  ) {
    this.uid = seed.uid;
    this.apiKey = seed.apiKey;
    this.secret = seed.secret;
    this.passphrase = seed.passphrase;
    this.aiLogAllowlisted = seed.aiLogAllowlisted;
  }

  /** Keeps the secret and passphrase out of logs and inspection output. */
  toJSON(): Record<string, unknown> {
    return { uid: this.uid, apiKey: this.apiKey, aiLogAllowlisted: this.aiLogAllowlisted };
  }
}
