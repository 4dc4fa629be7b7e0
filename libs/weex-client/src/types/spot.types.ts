import type { Decimal, Id, Millis } from './common.types.js';

/** Body of the spot bills query; every field is optional. */
export interface SpotBillsRequest {
  coinId?: number;
  /** e.g. `deposit`, `withdraw`, `trade_out`. */
  bizType?: string;
  /** Records created after this timestamp (the unit is not documented; public clients pass ms). */
  after?: Millis;
  before?: Millis;
  /** 1-100; default 10. */
  limit?: number;
}

/** One spot account bill. */
export interface SpotBill {
  billId: Id;
  coinId: number;
  coinName: string;
  bizType: string;
  fillSize: Decimal;
  fillValue: Decimal;
  deltaAmount: Decimal;
  afterAmount: Decimal;
  fees: Decimal;
  /** Sent as a string by the exchange; a number here. */
  cTime: Millis;
}
