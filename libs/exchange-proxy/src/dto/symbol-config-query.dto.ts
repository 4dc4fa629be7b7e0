import { IsOptional } from 'class-validator';
import { IsSymbol } from './param-rules.js';

/** GET /v1/symbol-config (spec operation 9): one symbol, or every symbol when none is given. */
export class SymbolConfigQueryDto {
  @IsOptional()
  @IsSymbol()
  symbol?: string;
}
