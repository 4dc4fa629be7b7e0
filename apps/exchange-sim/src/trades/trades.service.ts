import { Inject, Injectable } from '@nestjs/common';
import { newestFirst } from '../http/list-paging.js';
import type { RequestParams } from '../http/request-params.js';
import { inRange } from '../http/time-range.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import type { SimAccount } from '../state/sim-account.js';
import type { SimTrade } from '../state/order-records.js';
import { parseTradesQuery } from './trade-query.js';

/** Trade details (spec operation 8), newest first. */
@Injectable()
export class TradesService {
  constructor(@Inject(SIM_CLOCK) private readonly clock: Clock) {}

  userTrades(account: SimAccount, params: RequestParams): SimTrade[] {
    const q = parseTradesQuery(params, this.clock());
    const matching = account.data.trades.filter(
      (t) => (q.symbol === undefined || t.symbol === q.symbol) && (q.orderId === undefined || t.orderId === q.orderId) && inRange(t.time, q.range),
    );
    return newestFirst(
      matching,
      (t) => t.time,
      (t) => t.id,
    ).slice(0, q.limit);
  }
}
