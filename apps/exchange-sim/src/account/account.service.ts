import { Inject, Injectable } from '@nestjs/common';
import { newestFirst } from '../http/list-paging.js';
import { invalidParam, type RequestParams } from '../http/request-params.js';
import { inRange } from '../http/time-range.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import type { SimIncome, SimPosition, SimSymbolConfig } from '../state/account-records.js';
import type { SimAccount } from '../state/sim-account.js';
import { parseIncomeQuery } from './income-query.js';

export interface IncomePage {
  hasNextPage: boolean;
  nextKey: string | null;
  items: SimIncome[];
}

/** Positions, income and symbol configuration of the authenticated account. */
@Injectable()
export class AccountService {
  constructor(@Inject(SIM_CLOCK) private readonly clock: Clock) {}

  positions(account: SimAccount): SimPosition[] {
    return account.data.positions;
  }

  /**
   * Newest first; hasNextPage says more items match than `limit`, and nextKey (the last item's billId, as ccxt's
   * capture carries it) asks for them.
   */
  income(account: SimAccount, params: RequestParams): IncomePage {
    const q = parseIncomeQuery(params, this.clock());
    const matching = account.data.income.filter(
      (item) =>
        inRange(Number(item.time), q.range) &&
        (q.asset === undefined || item.asset === q.asset) &&
        (q.symbol === undefined || item.symbol === q.symbol) &&
        (q.incomeType === undefined || item.incomeType === q.incomeType),
    );
    const sorted = newestFirst(
      matching,
      (i) => Number(i.time),
      (i) => BigInt(i.billId),
    );
    const at = q.after === undefined ? -1 : sorted.findIndex((i) => i.billId === String(q.after));
    if (q.after !== undefined && at < 0) throw invalidParam('nextKey', 'is not the nextKey of a page of this query');
    const rest = sorted.slice(at + 1);
    const items = rest.slice(0, q.limit);
    const hasNextPage = rest.length > q.limit;
    return { hasNextPage, nextKey: hasNextPage ? items[items.length - 1].billId : null, items };
  }

  /** All symbols, or the one asked for (an unknown symbol gives an empty array). */
  symbolConfigs(account: SimAccount, params: RequestParams): SimSymbolConfig[] {
    const symbol = params.v3Symbol();
    return account.data.symbolConfigs.filter((c) => symbol === undefined || c.symbol === symbol);
  }
}
