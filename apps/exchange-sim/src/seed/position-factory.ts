import type { SimPosition } from '../state/account-records.js';
import { divUnits, fromUnits, mulUnits, roundToStep, toUnits } from './decimal-units.js';
import { MARKET_SYMBOLS, marketOf, stepUnits, tickUnits } from './market-catalog.js';
import { DAY_MS, type SeedContext } from './seed-context.js';

const TAKER_FEE = 60_000n;
/** Maintenance margin rate used for the estimated liquidation price, 0.5 % [G]. */
const MAINTENANCE = 500_000n;
const ONE = 100_000_000n;

/** One position whose amounts agree: openValue = size × entry, marginSize = openValue / leverage, and so on. */
export function makePosition(ctx: SeedContext, hints: Partial<SimPosition> = {}): SimPosition {
  const { rng } = ctx;
  const market = marketOf(hints.symbol ?? rng.pick(MARKET_SYMBOLS).symbol);
  const side = hints.side ?? rng.pick(['LONG', 'SHORT']);
  const marginType = hints.marginType ?? rng.pick(['CROSSED', 'ISOLATED']);
  const separatedMode = hints.separatedMode ?? 'COMBINED';
  const leverage = toUnits(hints.leverage ?? rng.pick(['5', '10', '20']));
  const size = toUnits(hints.size ?? ctx.quantity(market));
  const entry = toUnits(ctx.price(market));
  const mark = toUnits(ctx.price(market));
  const createdTime = hints.createdTime ?? ctx.now - rng.int(DAY_MS, 20 * DAY_MS);
  const closed = stepUnits(market) * BigInt(rng.int(0, 40));
  const openValue = mulUnits(size, entry);
  const marginSize = divUnits(openValue, leverage);
  const funding = (openValue * BigInt(rng.int(-40, 60))) / 100_000n;
  const direction = side === 'LONG' ? 1n : -1n;
  const cumOpenValue = mulUnits(size + closed, entry);
  const cumCloseValue = mulUnits(closed, mark);
  const sequence = rng.int(9_000_000_000, 9_900_000_000);
  return {
    id: ctx.id(createdTime),
    asset: 'USDT',
    symbol: market.symbol,
    side,
    marginType,
    separatedMode,
    separatedOpenOrderId: separatedMode === 'SEPARATED' ? ctx.id(createdTime) : 0,
    leverage: fromUnits(leverage),
    size: fromUnits(size),
    openValue: fromUnits(openValue),
    openFee: fromUnits(mulUnits(openValue, TAKER_FEE)),
    fundingFee: fromUnits(funding),
    marginSize: fromUnits(marginSize),
    isolatedMargin: marginType === 'ISOLATED' ? fromUnits(marginSize) : '0',
    isAutoAppendIsolatedMargin: marginType === 'ISOLATED' && rng.chance(0.3),
    cumOpenSize: fromUnits(size + closed),
    cumOpenValue: fromUnits(cumOpenValue),
    cumOpenFee: fromUnits(mulUnits(cumOpenValue, TAKER_FEE)),
    cumCloseSize: fromUnits(closed),
    cumCloseValue: fromUnits(cumCloseValue),
    cumCloseFee: fromUnits(mulUnits(cumCloseValue, TAKER_FEE)),
    cumFundingFee: fromUnits(funding),
    cumLiquidateFee: '0',
    createdMatchSequenceId: sequence,
    updatedMatchSequenceId: sequence + rng.int(1, 50_000_000),
    createdTime,
    updatedTime: rng.int(createdTime, ctx.now),
    unrealizePnl: fromUnits(mulUnits(mark - entry, size) * direction),
    // Cross margin draws on the whole balance, so its risk is shown as low (0, no liquidation price).
    liquidatePrice: marginType === 'CROSSED' ? '0' : liquidation(entry, leverage, direction, tickUnits(market)),
    ...hints,
  };
}

/** Three positions, one per symbol, covering both sides and both margin modes. */
export function generatePositions(ctx: SeedContext): SimPosition[] {
  const { rng } = ctx;
  return [
    makePosition(ctx, { symbol: 'BTCUSDT', side: 'LONG', marginType: 'CROSSED' }),
    makePosition(ctx, { symbol: 'ETHUSDT', side: 'SHORT', marginType: 'ISOLATED' }),
    makePosition(ctx, {
      symbol: 'SOLUSDT',
      side: rng.pick(['LONG', 'SHORT']),
      marginType: 'ISOLATED',
      separatedMode: rng.pick(['COMBINED', 'SEPARATED']),
    }),
  ];
}

/** entry × (1 ∓ 1/leverage ± maintenance), on the tick. */
function liquidation(entry: bigint, leverage: bigint, direction: bigint, tick: bigint): string {
  const move = divUnits(ONE, leverage) - MAINTENANCE;
  return fromUnits(roundToStep(mulUnits(entry, ONE - direction * move), tick));
}
