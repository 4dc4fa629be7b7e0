import type { OperationRequest } from '../operations.js';
import type { Decimal, Id, Millis } from './common.types.js';

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

/** Its fields and their rules are declared in OPERATIONS.userTrades.params. */
export type UserTradesRequest = OperationRequest<'userTrades'>;
