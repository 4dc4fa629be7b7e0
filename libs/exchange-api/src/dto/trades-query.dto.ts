import { IsOptional } from 'class-validator';
import { QueryInteger } from '#libs/http';
import { IsExchangeId, IsIntFrom, IsMillis, IsSymbol, NotBefore } from './param-rules.js';

/** GET /v1/trades (spec operation 8). limit 1-100, default 100; endTime ≥ startTime. */
export class TradesQueryDto {
  @IsOptional() @IsSymbol()
  symbol?: string;

  @IsOptional() @IsExchangeId()
  orderId?: string;

  @QueryInteger() @IsOptional() @IsMillis()
  startTime?: number;

  @QueryInteger() @IsOptional() @IsMillis() @NotBefore('startTime')
  endTime?: number;

  @QueryInteger() @IsOptional() @IsIntFrom(1, 100)
  limit?: number;
}
