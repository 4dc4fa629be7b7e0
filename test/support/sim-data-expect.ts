import { OPERATIONS } from '#libs/weex-client';
import type { DataAnswer } from './sim-data-client.js';

export type Row = Record<string, unknown>;
export const DAY = 86_400_000;

/** Every operation's path by name, from the one operations table. */
export const PATHS = Object.fromEntries(Object.entries(OPERATIONS).map(([name, op]) => [name, op.path])) as Record<keyof typeof OPERATIONS, string>;

/** Budgets out of the way: with a clock that stands still, every request of a file falls in one window. */
export const NO_BUDGETS = { ipLimit: 1_000_000_000, uidLimit: 1_000_000_000 };

export const rows = (answer: DataAnswer) => answer.json as Row[];

/** A decimal string in units of 1e-8, for exact sums. */
export function units(text: unknown): bigint {
  const [whole, fraction = ''] = String(text).split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 100_000_000n + BigInt(fraction.padEnd(8, '0')));
}

/** A v3 parameter error: HTTP 400, -1140, a message naming the parameter. */
export function expectInvalid(answer: DataAnswer, parameter: string): void {
  expect(answer.status).toBe(400);
  expect(answer.json).toEqual({ code: -1140, msg: expect.stringContaining(parameter) });
}

/** A v2 parameter error: HTTP 400, "40020" in the v2 envelope, a message naming the parameter. */
export function expectInvalidV2(answer: DataAnswer, parameter: string, now: number): void {
  expect(answer.status).toBe(400);
  expect(answer.json).toEqual({ code: '40020', msg: expect.stringContaining(parameter), requestTime: now, data: null });
}

export function expectNewestFirst(items: Row[], time: string): void {
  const times = items.map((item) => Number(item[time]));
  expect(times).toEqual([...times].sort((a, b) => b - a));
}
