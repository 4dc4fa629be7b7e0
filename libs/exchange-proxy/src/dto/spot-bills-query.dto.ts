import { IsOptional } from 'class-validator';
import { IsText } from './param-rules.js';
import { INTEGER_MAX, OptionalInt, OptionalMillis } from './query-fields.js';

/** GET /v1/spot/bills (spec operation 10). limit 1-100, default 10; after and before are Unix ms as public clients send. */
export class SpotBillsQueryDto {
  @OptionalInt(0, INTEGER_MAX)
  coinId?: number;

  @IsOptional()
  @IsText(64)
  bizType?: string;

  @OptionalMillis()
  after?: number;

  @OptionalMillis()
  before?: number;

  @OptionalInt(1, 100)
  limit?: number;
}
