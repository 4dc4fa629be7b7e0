import type { SimSpotBill } from '../state/account-records.js';
import { fromUnits, mulUnits, toUnits } from './decimal-units.js';
import { SPOT_COINS } from './market-catalog.js';
import { DAY_MS, HISTORY_DAYS, type SeedContext } from './seed-context.js';

/** 0.1 % spot fee, in units of 1e-8 [G]. */
const SPOT_FEE = 100_000n;
const SPOT_TRADES = 20;

type Entry = Omit<SimSpotBill, 'billId' | 'afterAmount' | 'cTime'> & { time: number };

/** One spot bill; billId and cTime are strings and coinId an integer, as WEEX sends them. */
export function makeSpotBill(ctx: SeedContext, hints: Partial<SimSpotBill> = {}): SimSpotBill {
  const time = hints.cTime === undefined ? ctx.timeWithin(HISTORY_DAYS) : Number(hints.cTime);
  const coin = SPOT_COINS.find((c) => c.coinId === hints.coinId) ?? ctx.rng.pick(SPOT_COINS);
  return {
    billId: ctx.id(time).toString(),
    coinId: coin.coinId,
    coinName: coin.coinName,
    bizType: 'deposit',
    fillSize: '0',
    fillValue: '0',
    deltaAmount: fromUnits(BigInt(ctx.rng.int(1, 5_000)) * 100_000_000n),
    afterAmount: fromUnits(BigInt(ctx.rng.int(5_000, 20_000)) * 100_000_000n),
    fees: '0',
    cTime: String(time),
    ...hints,
  };
}

/** Spot history, oldest first, with a running balance per coin: a USDT deposit, transfers, a withdrawal and buys. */
export function generateSpotBills(ctx: SeedContext): SimSpotBill[] {
  const { rng } = ctx;
  const [btc, usdt, ...alts] = SPOT_COINS;
  const start = ctx.now - HISTORY_DAYS * DAY_MS;
  const entries: Entry[] = [
    plain(usdt, 'deposit', '30000', start),
    plain(usdt, 'transfer_out', '-2000', start + DAY_MS),
    plain(usdt, 'withdraw', '-500', ctx.now - 30 * DAY_MS),
    plain(usdt, 'transfer_in', '750', ctx.now - 2 * DAY_MS),
  ];
  for (let i = 0; i < SPOT_TRADES; i++) {
    const coin = rng.pick([btc, ...alts]);
    const time = start + 2 * DAY_MS + Math.floor(((i + rng.next()) * (HISTORY_DAYS - 3) * DAY_MS) / SPOT_TRADES);
    const size = fromUnits(BigInt(rng.int(1, 10)) * (coin === btc ? 100_000n : 1_000_000n));
    const value = mulUnits(toUnits(size), toUnits(coin.price));
    const fee = mulUnits(value, SPOT_FEE);
    const fill = { fillSize: size, fillValue: fromUnits(value), time };
    const coinFee = fromUnits(mulUnits(toUnits(size), SPOT_FEE));
    entries.push(
      { ...plain(usdt, 'trade_out', fromUnits(-value - fee), time), ...fill, fees: fromUnits(fee) },
      { ...plain(coin, 'trade_in', fromUnits(toUnits(size) - toUnits(coinFee)), time), ...fill, fees: coinFee },
    );
  }
  const balances = new Map<number, bigint>();
  return entries
    .sort((a, b) => a.time - b.time)
    .map(({ time, ...entry }) => {
      const after = (balances.get(entry.coinId) ?? 0n) + toUnits(entry.deltaAmount);
      balances.set(entry.coinId, after);
      return makeSpotBill(ctx, { ...entry, afterAmount: fromUnits(after), cTime: String(time) });
    });
}

function plain(coin: (typeof SPOT_COINS)[number], bizType: string, delta: string, time: number): Entry {
  const common = { coinId: coin.coinId, coinName: coin.coinName, bizType, fillSize: '0', fillValue: '0' };
  return { ...common, deltaAmount: delta, fees: '0', time };
}
