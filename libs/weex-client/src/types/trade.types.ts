import type { Decimal, Id, IdInput, Millis, SymbolInput } from './common.types.js';

/** One fill (trade details). */
export interface Trade {
  id: Id;
  orderId: Id;
  symbol: string;
  buyer: boolean;
  commission: Decimal;
  commissionAsset: string;
  maker: boolean;
  price: Decimal;
  qty: Decimal;
  quoteQty: Decimal;
  realizedPnl: Decimal;
  /** BUY or SELL */
  side: string;
  /** LONG or SHORT */
  positionSide: string;
  time: Millis;
}

export interface UserTradesRequest {
  symbol?: SymbolInput;
  /** Only trades of this order. */
  orderId?: IdInput;
  startTime?: Millis;
  /** At least startTime. */
  endTime?: Millis;
  /** 1-100; default 100. */
  limit?: number;
}
