import { WeexApiError } from './weex-api.error.js';

const V2_PREFIX = 'cmt_';
const PAIR = /^[a-z0-9]+$/i;

function pairOf(symbol: string, operation: string): string {
  const pair = symbol.toLowerCase().startsWith(V2_PREFIX) ? symbol.slice(V2_PREFIX.length) : symbol;
  if (!PAIR.test(pair)) {
    throw WeexApiError.invalidParameter(operation, 'symbol', `must be a pair like BTCUSDT or cmt_btcusdt (got ${JSON.stringify(symbol)})`);
  }
  return pair;
}

/** `cmt_btcusdt` or `BTCUSDT` → `BTCUSDT`, the notation of the v3 operations. */
export function toV3Symbol(symbol: string, operation = 'symbol'): string {
  return pairOf(symbol, operation).toUpperCase();
}

/** `BTCUSDT` or `cmt_btcusdt` → `cmt_btcusdt`, the notation of the v2 cancel operations. */
export function toV2Symbol(symbol: string, operation = 'symbol'): string {
  return `${V2_PREFIX}${pairOf(symbol, operation).toLowerCase()}`;
}
