import { IsOptional } from 'class-validator';
import { QueryInteger } from '#libs/validation';
import { IsExchangeId, IsIntFrom, IsMillis, IsSymbol, NotBefore } from './param-rules.js';

/** GET /v1/orders/open (spec operation 4). limit 1-100, default 100; page from 0. */
export class OpenOrdersQueryDto {
  @IsOptional()
  @IsSymbol()
  symbol?: string;

  /** Only orders whose ID is greater than this one, so 0 is allowed. */
  @IsOptional()
  @IsExchangeId(0n)
  orderId?: string;

  @QueryInteger()
  @IsOptional()
  @IsMillis()
  startTime?: number;

  @QueryInteger()
  @IsOptional()
  @IsMillis()
  @NotBefore('startTime')
  endTime?: number;

  @QueryInteger()
  @IsOptional()
  @IsIntFrom(1, 100)
  limit?: number;

  @QueryInteger()
  @IsOptional()
  @IsIntFrom(0)
  page?: number;
}
