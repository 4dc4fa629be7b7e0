import { fromUnits, mulUnits, roundToStep, toUnits } from './decimal-units.js';
import { type MarketSymbol, stepUnits, tickUnits } from './market-catalog.js';
import { SeededRandom } from './seeded-random.js';
import { DAY_MS } from '#libs/common';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export { DAY_MS };

/** How far back generated history reaches. */
export const HISTORY_DAYS = 120;

/** IDs grow with time at this many per millisecond: a 2026 time gives 18 digits around 7.39e17, like WEEX's. */
const IDS_PER_MS = 418_000;

/** What every factory draws on: the account's PRNG, its ID source, and the simulator time the data is built at. */
export class SeedContext {
  readonly rng: SeededRandom;
  private readonly usedIds = new Set<bigint>();

  constructor(
    seed: string,
    readonly now: number,
  ) {
    this.rng = new SeededRandom(seed);
  }

  /** A unique 64-bit ID for a record created at `time`; a later record gets a larger ID [G]. */
  id(time: number): bigint {
    for (;;) {
      const id = BigInt(time) * BigInt(IDS_PER_MS) + BigInt(this.rng.int(0, IDS_PER_MS - 1));
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  /** A time in the last `days` days (ms), never after now. */
  timeWithin(days: number): number {
    return this.now - this.rng.int(0, days * DAY_MS);
  }

  /** A price within ±12% of the reference, on the tick. */
  price(market: MarketSymbol): string {
    const factor = toUnits((0.88 + this.rng.next() * 0.24).toFixed(6));
    const tick = tickUnits(market);
    return fromUnits(roundToStep(mulUnits(toUnits(market.referencePrice), factor), tick) || tick);
  }

  /** An order or position size of 1..maxSteps lots. */
  quantity(market: MarketSymbol): string {
    return fromUnits(stepUnits(market) * BigInt(this.rng.int(1, market.maxSteps)));
  }
}
