import type { OperationRequest } from '../operations.js';
import type { Decimal, Id, Millis } from './common.types.js';

/** Its fields and their rules are declared in OPERATIONS.spotBills.params. */
export type SpotBillsRequest = OperationRequest<'spotBills'>;

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
