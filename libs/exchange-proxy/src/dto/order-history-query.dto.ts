import { IsOptional } from 'class-validator';
import { QueryInteger } from '#libs/validation';
import { IsIntFrom, IsMillis, IsSymbol, NotBefore, WithinDaysOf } from './param-rules.js';

/** GET /v1/orders/history (spec operation 7). limit 1-1000, default 500; startTime ≤ endTime, ≤ 90 days; page from 0. */
export class OrderHistoryQueryDto {
  @IsOptional()
  @IsSymbol()
  symbol?: string;

  @QueryInteger()
  @IsOptional()
  @IsIntFrom(1, 1000)
  limit?: number;

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
  @IsIntFrom(0)
  page?: number;
}
