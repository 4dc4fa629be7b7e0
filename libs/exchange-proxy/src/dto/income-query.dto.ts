import { IsIn, IsOptional } from 'class-validator';
import { DAY_MS, IsExchangeId, IsText, NotBefore, rule, WithinDaysOf } from './param-rules.js';
import { OptionalInt, OptionalMillis, OptionalSymbol } from './query-fields.js';

/** incomeType values of the spec's income operation. */
export const INCOME_TYPES = [
  'deposit',
  'withdraw',
  'transfer_in',
  'transfer_out',
  'margin_move_in',
  'margin_move_out',
  'position_open_long',
  'position_open_short',
  'position_close_long',
  'position_close_short',
  'position_funding',
  'order_fill_fee_income',
  'order_liquidate_fee_income',
  'start_liquidate',
  'finish_liquidate',
  'order_fix_margin_amount',
  'tracking_follow_pay',
  'tracking_system_pre_receive',
  'tracking_follow_back',
  'tracking_trader_income',
  'tracking_third_party_share',
] as const;

const MAX_RANGE_DAYS = 100;

/** The spec's rule 2: with only startTime, endTime becomes now, so startTime must lie in the 100 days before now. */
const StartAloneWithinRange = () =>
  rule('startAloneWithinRange', (value, path, dto) => {
    if (dto.endTime !== undefined || !Number.isSafeInteger(value)) return undefined;
    const now = Date.now();
    if ((value as number) > now) return `${path} must not be in the future when endTime is not given`;
    if (now - (value as number) > MAX_RANGE_DAYS * DAY_MS) return `${path} must be within ${MAX_RANGE_DAYS} days of now when endTime is not given`;
    return undefined;
  });

/**
 * GET /v1/income (spec operation 3). limit 1-100, default 20. Only endTime: startTime is 30 days before it; only
 * startTime: endTime is now; both: at most 100 days apart.
 */
export class IncomeQueryDto {
  @IsOptional()
  @IsText(20)
  asset?: string;

  @OptionalSymbol()
  symbol?: string;

  @IsOptional()
  @IsIn(INCOME_TYPES, { message: `incomeType must be one of ${INCOME_TYPES.join(', ')}` })
  incomeType?: string;

  @OptionalMillis(StartAloneWithinRange())
  startTime?: number;

  @OptionalMillis(NotBefore('startTime'), WithinDaysOf('startTime', MAX_RANGE_DAYS))
  endTime?: number;

  @OptionalInt(1, 100)
  limit?: number;

  /** The `nextKey` of the page before, with the same other parameters: the page after it. */
  @IsOptional()
  @IsExchangeId()
  nextKey?: string;
}
