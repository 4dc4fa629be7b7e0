import { normaliseList } from './normalise.js';
import { buildBody } from './query-string.js';
import { checkInt, checkTime } from './request-validation.js';
import type { CallOptions } from './types/common.types.js';
import type { SpotBill, SpotBillsRequest } from './types/spot.types.js';
import type { WeexCaller } from './weex-request-runner.js';

export async function spotBills(caller: WeexCaller, req: SpotBillsRequest = {}, options: CallOptions = {}): Promise<SpotBill[]> {
  const op = 'spotBills';
  const body = buildBody([
    ['coinId', checkInt(op, 'coinId', req.coinId, 0, Number.MAX_SAFE_INTEGER)],
    ['bizType', req.bizType],
    ['after', checkTime(op, 'after', req.after)],
    ['before', checkTime(op, 'before', req.before)],
    ['limit', checkInt(op, 'limit', req.limit, 1, 100, 10)],
  ]);
  const res = await caller.call({ operation: op, body, ...options });
  return normaliseList(res.data, { ids: ['billId'], times: ['cTime'], integers: ['coinId'] }, op);
}
