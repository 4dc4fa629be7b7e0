import { IsOptional } from 'class-validator';
import { DAY_MS, IsExchangeId, NotBefore, rule, WithinDaysOf } from './param-rules.js';
import { OptionalInt, OptionalMillis, OptionalSymbol } from './query-fields.js';

/** WEEX serves fills in windows of at most 7 days (weex-facts [L]); the simulator refuses longer ones, as WEEX does. */
const MAX_WINDOW_DAYS = 7;
/** ... and at most 365 days back (weex-facts [L]), which the simulator enforces too. */
const MAX_LOOKBACK_DAYS = 365;

/**
 * The window's start within the last 365 days by the gateway's clock: startTime, or with endTime alone the start the
 * exchange takes, 7 days before it. No margin: a start the exchange would still take is never refused here, and one
 * at the very edge costs at most the exchange's own refusal, as before.
 */
const StartWithinLookback = (startOf: (value: number, dto: Record<string, unknown>) => number | undefined, why: string) =>
  rule('startWithinLookback', (value, path, dto) => {
    const start = Number.isSafeInteger(value) ? startOf(value as number, dto) : undefined;
    return start !== undefined && start < Date.now() - MAX_LOOKBACK_DAYS * DAY_MS ? `${path} must be within the last ${why}` : undefined;
  });

/**
 * GET /v1/trades (spec operation 8). limit 1-100, default 100; endTime ≥ startTime, at most 7 days after it; the
 * window within the last 365 days.
 */
export class TradesQueryDto {
  @OptionalSymbol()
  symbol?: string;

  @IsOptional()
  @IsExchangeId()
  orderId?: string;

  @OptionalMillis(StartWithinLookback((start) => start, `${MAX_LOOKBACK_DAYS} days (WEEX serves fills at most ${MAX_LOOKBACK_DAYS} days back)`))
  startTime?: number;

  @OptionalMillis(
    NotBefore('startTime'),
    WithinDaysOf('startTime', MAX_WINDOW_DAYS),
    StartWithinLookback(
      (end, dto) => (dto.startTime === undefined ? end - MAX_WINDOW_DAYS * DAY_MS : undefined),
      `${MAX_LOOKBACK_DAYS - MAX_WINDOW_DAYS} days when startTime is not given (the window then starts ${MAX_WINDOW_DAYS} days before it, and WEEX serves fills at most ${MAX_LOOKBACK_DAYS} days back)`,
    ),
  )
  endTime?: number;

  @OptionalInt(1, 100)
  limit?: number;
}
