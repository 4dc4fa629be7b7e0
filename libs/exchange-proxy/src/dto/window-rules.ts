import type { TimeWindow } from '#libs/weex-client';
import { DAY_MS, NotBefore, rule, WithinDaysOf } from './param-rules.js';

/**
 * The class-validator rules of an operation's startTime/endTime window (`OPERATIONS[...].params.window`), checked by
 * the gateway's clock with no margin: a window the exchange would still take is never refused here.
 */
export function windowRules(window: TimeWindow): { startTime: PropertyDecorator[]; endTime: PropertyDecorator[] } {
  const { maxDays, lookbackDays, endAloneDays, startAlone } = window;
  const startTime: PropertyDecorator[] = [];
  const endTime: PropertyDecorator[] = [NotBefore('startTime')];
  if (maxDays !== undefined) endTime.push(WithinDaysOf('startTime', maxDays));
  if (startAlone === 'now' && maxDays !== undefined) startTime.push(StartAloneWithinDays(maxDays));
  if (lookbackDays !== undefined) {
    startTime.push(StartWithinLookback(lookbackDays, (start) => start, `${lookbackDays} days (WEEX serves them at most ${lookbackDays} days back)`));
    if (endAloneDays !== undefined) {
      endTime.push(
        StartWithinLookback(
          lookbackDays,
          (end, dto) => (dto.startTime === undefined ? end - endAloneDays * DAY_MS : undefined),
          `${lookbackDays - endAloneDays} days when startTime is not given (the window then starts ${endAloneDays} days before it, and WEEX serves them at most ${lookbackDays} days back)`,
        ),
      );
    }
  }
  return { startTime, endTime };
}

/** With startTime alone the exchange ends the window now, so startTime must lie in the `days` before now. */
const StartAloneWithinDays = (days: number) =>
  rule('startAloneWithinRange', (value, path, dto) => {
    if (dto.endTime !== undefined || !Number.isSafeInteger(value)) return undefined;
    const now = Date.now();
    if ((value as number) > now) return `${path} must not be in the future when endTime is not given`;
    if (now - (value as number) > days * DAY_MS) return `${path} must be within ${days} days of now when endTime is not given`;
    return undefined;
  });

/** The window's start (startTime, or the start the exchange takes with endTime alone) within the lookback. */
const StartWithinLookback = (lookbackDays: number, startOf: (value: number, dto: Record<string, unknown>) => number | undefined, why: string) =>
  rule('startWithinLookback', (value, path, dto) => {
    const start = Number.isSafeInteger(value) ? startOf(value as number, dto) : undefined;
    return start !== undefined && start < Date.now() - lookbackDays * DAY_MS ? `${path} must be within the last ${why}` : undefined;
  });
