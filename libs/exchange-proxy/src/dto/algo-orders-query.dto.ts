import { NotBefore, WithinDaysOf } from './param-rules.js';
import { OptionalInt, OptionalMillis, OptionalSymbol } from './query-fields.js';

/** GET /v1/algo-orders (spec operation 5). limit 1-1000, default 500; endTime within 90 days of startTime. */
export class AlgoOrdersQueryDto {
  @OptionalSymbol()
  symbol?: string;

  @OptionalMillis()
  startTime?: number;

  @OptionalMillis(NotBefore('startTime'), WithinDaysOf('startTime', 90))
  endTime?: number;

  @OptionalInt(1, 1000)
  limit?: number;
}
