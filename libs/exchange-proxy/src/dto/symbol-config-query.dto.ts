import { OptionalSymbol } from './query-fields.js';

/** GET /v1/symbol-config (spec operation 9): one symbol, or every symbol when none is given. */
export class SymbolConfigQueryDto {
  @OptionalSymbol()
  symbol?: string;
}
