import { Inject, Injectable } from '@nestjs/common';
import { newestFirst } from '../http/list-paging.js';
import type { RequestParams } from '../http/request-params.js';
import { inRange } from '../http/time-range.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import type { SimIncome, SimPosition, SimSymbolConfig } from '../state/account-records.js';
import type { SimAccount } from '../state/sim-account.js';
import { parseIncomeQuery } from './income-query.js';

/** Positions, income and symbol configuration of the authenticated account. */
@Injectable()
export class AccountService {
  constructor(@Inject(SIM_CLOCK) private readonly clock: Clock) {}

  positions(account: SimAccount): SimPosition[] {
    return account.data.positions;
  }

  /** Newest first; hasNextPage says more items match than `limit`. */
  income(account: SimAccount, params: RequestParams): { hasNextPage: boolean; items: SimIncome[] } {
    const q = parseIncomeQuery(params, this.clock());
    const matching = account.data.income.filter(
      (item) =>
        inRange(item.time, q.range) &&
        (q.asset === undefined || item.asset === q.asset) &&
        (q.symbol === undefined || item.symbol === q.symbol) &&
        (q.incomeType === undefined || item.incomeType === q.incomeType),
    );
    const items = newestFirst(matching, (i) => i.time, (i) => i.billId);
    return { hasNextPage: items.length > q.limit, items: items.slice(0, q.limit) };
  }

  /** All symbols, or the one asked for (an unknown symbol gives an empty array). */
  symbolConfigs(account: SimAccount, params: RequestParams): SimSymbolConfig[] {
    const symbol = params.v3Symbol();
    return account.data.symbolConfigs.filter((c) => symbol === undefined || c.symbol === symbol);
  }
}
