import { Injectable } from '@nestjs/common';
import { newestFirst } from '../http/list-paging.js';
import type { RequestParams } from '../http/request-params.js';
import type { SimSpotBill } from '../state/account-records.js';
import type { SimAccount } from '../state/sim-account.js';
import { parseSpotBillsQuery } from './spot-bills-query.js';

/** Spot account bills (spec operation 10), newest first. */
@Injectable()
export class SpotService {
  bills(account: SimAccount, params: RequestParams): SimSpotBill[] {
    const q = parseSpotBillsQuery(params);
    const matching = account.data.spotBills.filter((bill) => {
      const time = Number(bill.cTime);
      return (
        (q.coinId === undefined || bill.coinId === q.coinId) &&
        (q.bizType === undefined || bill.bizType === q.bizType) &&
        (q.after === undefined || time > q.after) &&
        (q.before === undefined || time < q.before)
      );
    });
    // A seed file may hold bill IDs that are not digits; they sort last among bills of the same time.
    const id = (b: SimSpotBill) => (/^\d+$/.test(b.billId) ? BigInt(b.billId) : 0n);
    return newestFirst(matching, (b) => Number(b.cTime), id).slice(0, q.limit);
  }
}
