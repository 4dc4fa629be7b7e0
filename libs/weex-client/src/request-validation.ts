import type { IdInput, Millis } from './types/common.types.js';
import { WeexApiError } from './weex-api.error.js';
import { DAY_MS } from '#libs/common';

export { DAY_MS };

const fail = (operation: string, field: string, rule: string): never => {
  throw WeexApiError.invalidParameter(operation, field, rule);
};

/** An integer in [min, max]; `fallback` when not given. */
export function checkInt(operation: string, field: string, value: number | undefined, min: number, max: number, fallback: number): number;
export function checkInt(operation: string, field: string, value: number | undefined, min: number, max: number): number | undefined;
export function checkInt(operation: string, field: string, value: number | undefined, min: number, max: number, fallback?: number) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    fail(operation, field, `must be an integer ${range} (got ${value})`);
  }
  return value;
}

/** A time in Unix ms: a non-negative safe integer. */
export function checkTime(operation: string, field: string, value: Millis | undefined): Millis | undefined {
  return checkInt(operation, field, value, 0, Number.MAX_SAFE_INTEGER);
}

/** A 64-bit ID from a caller: a string of digits or a non-negative bigint, returned as its digits. */
export function checkId(operation: string, field: string, value: IdInput | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'bigint' && value >= 0n) return value.toString();
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  // A JS number may already have lost digits (IDs exceed 2^53), so numbers are refused too.
  return fail(operation, field, `must be a string of decimal digits or a bigint (got ${describe(value)})`);
}

/** A parameter the operation cannot do without. */
export function required<T>(operation: string, field: string, value: T | undefined | null): T {
  if (value === undefined || value === null || value === '') fail(operation, field, 'is required');
  return value as T;
}

/** When both times are given: startTime ≤ endTime, and the range at most `maxDays` (if given). */
export function checkWindow(operation: string, startTime: Millis | undefined, endTime: Millis | undefined, maxDays?: number): void {
  checkTime(operation, 'startTime', startTime);
  checkTime(operation, 'endTime', endTime);
  if (startTime === undefined || endTime === undefined) return;
  if (endTime < startTime) fail(operation, 'endTime', `must not be before startTime (${endTime} < ${startTime})`);
  if (maxDays !== undefined && endTime - startTime > maxDays * DAY_MS) {
    fail(operation, 'endTime', `must be within ${maxDays} days of startTime`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : `${typeof value} ${String(value)}`;
}
