import { IsOptional } from 'class-validator';
import { QueryInteger } from '#libs/validation';
import { IsIntFrom, IsMillis, IsText } from './param-rules.js';

/** GET /v1/spot/bills (spec operation 10). limit 1-100, default 10; after and before are Unix ms as public clients send. */
export class SpotBillsQueryDto {
  @QueryInteger()
  @IsOptional()
  @IsIntFrom(0)
  coinId?: number;

  @IsOptional()
  @IsText(64)
  bizType?: string;

  @QueryInteger()
  @IsOptional()
  @IsMillis()
  after?: number;

  @QueryInteger()
  @IsOptional()
  @IsMillis()
  before?: number;

  @QueryInteger()
  @IsOptional()
  @IsIntFrom(1, 100)
  limit?: number;
}
