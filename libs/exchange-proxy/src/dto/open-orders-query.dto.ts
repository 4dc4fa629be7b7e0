import { IsOptional } from 'class-validator';
import { IsExchangeId, NotBefore } from './param-rules.js';
import { INTEGER_MAX, OptionalInt, OptionalMillis, OptionalSymbol } from './query-fields.js';

/** GET /v1/orders/open (spec operation 4). limit 1-100, default 100; page from 0. */
export class OpenOrdersQueryDto {
  @OptionalSymbol()
  symbol?: string;

  /** Only orders whose ID is greater than this one, so 0 is allowed. */
  @IsOptional()
  @IsExchangeId(0n)
  orderId?: string;

  @OptionalMillis()
  startTime?: number;

  @OptionalMillis(NotBefore('startTime'))
  endTime?: number;

  @OptionalInt(1, 100)
  limit?: number;

  @OptionalInt(0, INTEGER_MAX)
  page?: number;
}
