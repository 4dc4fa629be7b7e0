import { fromUnits, mulUnits, roundToStep, toUnits } from '../seed/decimal-units.js';
import { type MarketSymbol, marketOf, tickUnits } from '../seed/market-catalog.js';
import { SeededRandom } from '../seed/seeded-random.js';

const SECOND_MS = 1000;
const HOUR_MS = 3_600_000;

/**
 * The simulated last price of each symbol: a pure function of (seed, symbol, second), so a restart or a replay sees the
 * same path. Two slow waves (±3 % over 6 h, ±1 % over 37 min) and a per-second jitter of ±0.05 %, around the symbol's
 * reference price, on its tick.
 */
export class PriceFeed {
  private readonly phases = new Map<string, [number, number]>();

  constructor(private readonly seed: number = 1) {}

  /** The last price at `time` (ms), as a decimal string on the symbol's tick. */
  priceAt(symbol: string, time: number): string {
    return fromUnits(this.unitsAt(marketOf(symbol), time));
  }

  /** The price in units of 1e-8. */
  unitsAt(market: MarketSymbol, time: number): bigint {
    const [slow, fast] = this.phasesOf(market.symbol);
    const second = Math.floor(time / SECOND_MS);
    const t = second * SECOND_MS;
    const jitter = new SeededRandom(`${this.seed}:${market.symbol}:${second}`).next() - 0.5;
    const move = 0.03 * Math.sin((2 * Math.PI * t) / (6 * HOUR_MS) + slow) + 0.01 * Math.sin((2 * Math.PI * t) / (37 * 60_000) + fast) + 0.001 * jitter;
    const factor = toUnits((1 + move).toFixed(8));
    const tick = tickUnits(market);
    return roundToStep(mulUnits(toUnits(market.referencePrice), factor), tick) || tick;
  }

  private phasesOf(symbol: string): [number, number] {
    let phases = this.phases.get(symbol);
    if (!phases) {
      const rng = new SeededRandom(`${this.seed}:${symbol}`);
      phases = [rng.next() * 2 * Math.PI, rng.next() * 2 * Math.PI];
      this.phases.set(symbol, phases);
    }
    return phases;
  }
}
