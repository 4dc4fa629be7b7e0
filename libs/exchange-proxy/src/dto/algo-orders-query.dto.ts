import { IsOptional } from 'class-validator';
import { QueryInteger } from '#libs/validation';
import { IsIntFrom, IsMillis, IsSymbol, NotBefore, WithinDaysOf } from './param-rules.js';

/** GET /v1/algo-orders (spec operation 5). limit 1-1000, default 500; endTime within 90 days of startTime. */
export class AlgoOrdersQueryDto {
  @IsOptional()
  @IsSymbol()
  symbol?: string;

  @QueryInteger()
  @IsOptional()
  @IsMillis()
  startTime?: number;

  @QueryInteger()
  @IsOptional()
  @IsMillis()
  @NotBefore('startTime')
  @WithinDaysOf('startTime', 90)
  endTime?: number;

  @QueryInteger()
  @IsOptional()
  @IsIntFrom(1, 1000)
  limit?: number;
}
