import { ValidateIf } from 'class-validator';
import { AbsentWith, IsExchangeIdList, IsSymbol, IsTextList } from './param-rules.js';

/** POST /v1/orders/cancel-batch (spec operation 11): a symbol and exactly one of `ids` or `cids`, non-empty. */
export class CancelBatchDto {
  @IsSymbol()
  symbol: string;

  /** JSON integers of any size (bigint beyond 2^53, from the lossless body parser) or strings of digits. */
  @ValidateIf((dto: CancelBatchDto) => dto.ids !== undefined || dto.cids === undefined)
  @IsExchangeIdList('ids or cids is required: give exactly one of them, as a non-empty list')
  ids?: unknown[];

  /** A client order ID has at most 40 characters (WEEX -1180, weex.js): a longer one names no order. */
  @ValidateIf((dto: CancelBatchDto) => dto.cids !== undefined)
  @IsTextList(40)
  @AbsentWith('ids')
  cids?: string[];
}
