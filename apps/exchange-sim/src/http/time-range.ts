import { invalidParam } from './request-params.js';
import { DAY_MS } from '#libs/common';

export { DAY_MS };

/** A window of creation times in Unix ms; a missing end is open. Both ends are included. */
export interface TimeRange {
  start?: number;
  end?: number;
}

export function inRange(time: number, range: TimeRange): boolean {
  return (range.start === undefined || time >= range.start) && (range.end === undefined || time <= range.end);
}

/** Refuses endTime before startTime, and (when `maxDays` is given) a window longer than `maxDays` days. */
export function checkRange(range: TimeRange, maxDays?: number): TimeRange {
  const { start, end } = range;
  if (start === undefined || end === undefined) return range;
  if (end < start) throw invalidParam('endTime', 'must not be before startTime');
  if (maxDays !== undefined && end - start > maxDays * DAY_MS) {
    throw invalidParam('endTime', `must be within ${maxDays} days of startTime`);
  }
  return range;
}
