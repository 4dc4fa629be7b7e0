import { DAY_MS } from '#libs/common';
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export { DAY_MS };

export interface TimeWindow {
  /** Unix ms, inclusive. */
  start: number;
  /** Unix ms, inclusive. */
  end: number;
}

/**
 * Consecutive windows from `from` to `to`, oldest first, each at most `maxMs` long. Neighbours share their boundary
 * millisecond, so nothing falls between two windows (the upserts make the double read harmless).
 */
export function windowsBetween(from: number, to: number, maxMs: number): TimeWindow[] {
  const windows: TimeWindow[] = [];
  for (let start = Math.min(from, to); ; start += maxMs) {
    const end = Math.min(start + maxMs, to);
    windows.push({ start, end });
    if (end >= to) return windows;
  }
}

/**
 * Where a stream's run starts reading: `overlapMs` before where the previous run got to, so that records the exchange
 * showed late are read again; on the first run, and never further back than, `lookbackMs` before now.
 */
export function runStart(syncedUntil: number | undefined, now: number, lookbackMs: number, overlapMs: number): number {
  const floor = now - lookbackMs;
  return syncedUntil === undefined ? floor : Math.min(now, Math.max(floor, syncedUntil - overlapMs));
}

/**
 * The oldest of `times` in a full page read with `endTime = end`, where the next query of a narrowing loop ends. Throws
 * when the page gives no way to narrow (no usable time, or times after `end`), which would otherwise loop forever.
 */
export function oldestTime(times: readonly number[], end: number, what: string): number {
  const usable = times.filter((t) => Number.isFinite(t));
  if (usable.length === 0) throw new Error(`${what}: a full page without times; cannot narrow the window`);
  const oldest = Math.min(...usable);
  if (oldest > end) throw new Error(`${what}: a full page newer than its endTime; the exchange does not seem to honour endTime`);
  return oldest;
}
