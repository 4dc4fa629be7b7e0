import type { SimIncome, SimPosition } from '../state/account-records.js';
import type { SimTrade } from '../state/order-records.js';
import { fromUnits, toUnits } from './decimal-units.js';
import { DAY_MS, HISTORY_DAYS, HOUR_MS, type SeedContext } from './seed-context.js';

const FUNDING_INTERVAL_MS = 8 * HOUR_MS;
const FUNDING_DAYS = 30;

type Entry = Omit<SimIncome, 'billId' | 'balance' | 'time'> & { time: number };

/** One income item; `balance` is made up unless given (generated history carries a running balance). */
export function makeIncome(ctx: SeedContext, hints: Partial<SimIncome> = {}): SimIncome {
  const time = hints.time === undefined ? ctx.timeWithin(HISTORY_DAYS) : Number(hints.time);
  return {
    billId: ctx.id(time).toString(),
    asset: 'USDT',
    symbol: '',
    income: fromUnits(BigInt(ctx.rng.int(-5_000, 5_000)) * 1_000_000n),
    incomeType: 'transfer_in',
    balance: fromUnits(BigInt(ctx.rng.int(1_000, 20_000)) * 100_000_000n),
    fillFee: '0',
    time: String(time),
    transferReason: 'UNKNOWN_TRANSFER_REASON',
    ...hints,
  };
}

/**
 * The account's USDT ledger, oldest first with a running balance: deposits and transfers, one item per trade
 * (position_open_* / position_close_*, income = realizedPnl - commission), funding every 8 h for open positions over
 * the last 30 days, and a fee-discount refund.
 */
export function generateIncome(ctx: SeedContext, trades: readonly SimTrade[], positions: readonly SimPosition[]): SimIncome[] {
  const start = ctx.now - (HISTORY_DAYS + 2) * DAY_MS;
  const entries: Entry[] = [
    transfer('deposit', start, '10000', 'UNKNOWN_TRANSFER_REASON'),
    transfer('transfer_in', start + HOUR_MS, '5000', 'USER_TRANSFER'),
    transfer('transfer_out', ctx.now - 60 * DAY_MS, '-1500', 'USER_TRANSFER'),
    transfer('withdraw', ctx.now - 20 * DAY_MS, '-800', 'UNKNOWN_TRANSFER_REASON'),
    transfer('transfer_in', ctx.now - 5 * DAY_MS, '3.25', 'REFUND_WXT_DISCOUNT_FEE'),
    ...trades.map(tradeEntry),
    ...positions.flatMap((p) => fundingEntries(ctx, p)),
  ];
  let balance = 0n;
  return entries
    .sort((a, b) => a.time - b.time)
    .map((entry) => {
      balance += toUnits(entry.income);
      return makeIncome(ctx, { ...entry, time: String(entry.time), balance: fromUnits(balance) });
    });
}

function tradeEntry(trade: SimTrade): Entry {
  const closing = (trade.side === 'BUY') === (trade.positionSide === 'SHORT');
  const income = toUnits(trade.realizedPnl) - toUnits(trade.commission);
  return {
    asset: trade.commissionAsset,
    symbol: trade.symbol,
    income: fromUnits(income),
    incomeType: `position_${closing ? 'close' : 'open'}_${trade.positionSide.toLowerCase()}`,
    fillFee: trade.commission,
    time: trade.time,
    transferReason: 'UNKNOWN_TRANSFER_REASON',
  };
}

function fundingEntries(ctx: SeedContext, position: SimPosition): Entry[] {
  const value = toUnits(position.openValue);
  const first = Math.max(position.createdTime, ctx.now - FUNDING_DAYS * DAY_MS);
  const entries: Entry[] = [];
  for (let t = Math.ceil(first / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS; t <= ctx.now; t += FUNDING_INTERVAL_MS) {
    // Rates between -0.01 % and +0.03 %; longs pay a positive rate, shorts receive it.
    const paid = (value * BigInt(ctx.rng.int(-10, 30))) / 100_000n;
    const income = position.side === 'LONG' ? -paid : paid;
    const common = { asset: position.asset, symbol: position.symbol, fillFee: '0', time: t };
    const reason = { incomeType: 'position_funding', transferReason: 'UNKNOWN_TRANSFER_REASON' };
    entries.push({ ...common, ...reason, income: fromUnits(income) });
  }
  return entries;
}

function transfer(incomeType: string, time: number, income: string, transferReason: string): Entry {
  return { asset: 'USDT', symbol: '', income, incomeType, fillFee: '0', time, transferReason };
}
