import type { Weight } from './limiter-weight-budget.js';

/** A lease is at least this share of a window's limit (1/50), and at least the weight of the call that asks. */
const LEASE_DIVISOR = 50;

/**
 * Weight this process took from the shared budget ahead of its calls, so that a run of calls costs one round trip to
 * Redis instead of one each: a round trip wakes Redis and then this process again, which on a shared VM took about
 * 1.5 ms per call at p50 (docs/benchmarks.md, scenario 5).
 *
 * What bounds it:
 * - A lease is one more call's weight (or 1/50 of the limit, if larger), taken with a call and only while the span
 *   stays at most half used (TAKE_BOTH_LUA), so near a limit every take is exact and each process holds at most one
 *   lease: weight that one process holds unused and another could have used is at most that, until it leaves the span.
 * - Credit belongs to the bucket it was taken in (SlidingSpan, a 200th of the window): in any other it is worth
 *   nothing, so that no call is sent later than the bucket its weight was counted in; what is left of it then goes
 *   back to its bucket (lapsed).
 * - A pause after a 429 drops it (the pause covers the rest of the window). A process that holds credit when another
 *   process's 429 pauses the budget may still send what its credit covers, one call's weight, before it sees the pause.
 */
export class WeightCredit {
  private window = '';
  private credit: Weight = { ip: 0, uid: 0 };
  /** One lease asked at a time: callers that arrive meanwhile ask for their own weight only. */
  private leasing = false;

  /** Takes `weight` from the credit of `window` (the budgets' bucket keys); false when it does not cover it. */
  take(window: string, weight: Weight): boolean {
    if (window !== this.window || weight.ip > this.credit.ip || weight.uid > this.credit.uid) return false;
    this.credit = { ip: this.credit.ip - weight.ip, uid: this.credit.uid - weight.uid };
    return true;
  }

  /** The lease to ask for with a call of `weight` (zero while another lease is being asked); marks it asked. */
  ask(weight: Weight, limits: Weight): Weight {
    if (this.leasing) return { ip: 0, uid: 0 };
    const lease = (points: number, limit: number) => (points > 0 ? Math.max(points, Math.ceil(limit / LEASE_DIVISOR)) : 0);
    const asked = { ip: lease(weight.ip, limits.ip), uid: lease(weight.uid, limits.uid) };
    // settle() ends only a non-zero lease: a weightless call must not mark one asked, or leasing would stop for good.
    this.leasing = asked.ip > 0 || asked.uid > 0;
    return asked;
  }

  /** The answer to `ask`: the lease, if granted, becomes the credit of `window` (what was left of another bucket lapses). */
  settle(asked: Weight, window: string, granted: boolean): void {
    if (asked.ip === 0 && asked.uid === 0) return;
    this.leasing = false;
    if (granted) this.add(window, asked);
  }

  /** Weight taken in `window`, the current one, for a call that was not made: credit for the next calls. */
  refund(window: string, weight: Weight): void {
    this.add(window, weight);
  }

  /** Empties the credit; returns what it held, and the bucket it belongs to. */
  takeAll(): { window: string; weight: Weight } {
    const held = { window: this.window, weight: this.credit };
    this.credit = { ip: 0, uid: 0 };
    return held;
  }

  /**
   * The credit of a bucket other than `window`, emptied, or undefined when there is none: weight counted in a bucket
   * still in the span, to give back there, or it would count against the span for a whole window unspent.
   */
  lapsed(window: string): { window: string; weight: Weight } | undefined {
    if (window === this.window || (this.credit.ip === 0 && this.credit.uid === 0)) return undefined;
    return this.takeAll();
  }

  private add(window: string, weight: Weight): void {
    const kept = window === this.window ? this.credit : { ip: 0, uid: 0 };
    this.window = window;
    this.credit = { ip: kept.ip + weight.ip, uid: kept.uid + weight.uid };
  }

  /** After a 429: the budget is paused for the rest of the window, and the credit with it. */
  drop(): void {
    this.credit = { ip: 0, uid: 0 };
  }
}
