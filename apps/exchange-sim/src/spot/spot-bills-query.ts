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
 * The spot bills body (spec operation 10): limit default 10, maximum 100. after and before are read as ms
 * timestamps, as public clients send them; the spec leaves their unit open (weex-facts [G]).
 */
export function parseSpotBillsQuery(params: RequestParams): SpotBillsQuery {
  return {
    coinId: params.has('coinId') ? params.int('coinId', { min: 0, max: 2 ** 31 - 1, fallback: 0 }) : undefined,
    bizType: params.string('bizType'),
    after: params.time('after'),
    before: params.time('before'),
    limit: params.int('limit', { min: 1, max: 100, fallback: 10 }),
  };
}
