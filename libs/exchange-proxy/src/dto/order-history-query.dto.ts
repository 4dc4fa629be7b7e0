import { NotBefore, WithinDaysOf } from './param-rules.js';
import { INTEGER_MAX, OptionalInt, OptionalMillis, OptionalSymbol } from './query-fields.js';

/** GET /v1/orders/history (spec operation 7). limit 1-1000, default 500; startTime ≤ endTime, ≤ 90 days; page from 0. */
export class OrderHistoryQueryDto {
  @OptionalSymbol()
  symbol?: string;

  @OptionalInt(1, 1000)
  limit?: number;

  @OptionalMillis()
  startTime?: number;

  @OptionalMillis(NotBefore('startTime'), WithinDaysOf('startTime', 90))
  endTime?: number;

  @OptionalInt(0, INTEGER_MAX)
  page?: number;
}
