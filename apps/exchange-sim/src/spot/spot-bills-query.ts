import { readParams } from '../http/operation-params.js';
import type { RequestParams } from '../http/request-params.js';

export interface SpotBillsQuery {
  coinId?: number;
  bizType?: string;
  /** Only bills created strictly after this time, ms. */
  after?: number;
  /** Only bills created strictly before this time, ms. */
  before?: number;
  limit: number;
}

/**
 * The spot bills body (spec operation 10), by its parameters in OPERATIONS. after and before are read as ms
 * timestamps, as public clients send them; the spec leaves their unit open (weex-facts [G]).
 */
export function parseSpotBillsQuery(params: RequestParams): SpotBillsQuery {
  return readParams('spotBills', params);
}
