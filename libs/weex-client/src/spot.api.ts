import { normaliseList } from './normalise.js';
import { operationRequest } from './operation-request.js';
import type { CallOptions } from './types/common.types.js';
import type { SpotBill, SpotBillsRequest } from './types/spot.types.js';
import type { WeexCaller } from './weex-request-runner.js';

export async function spotBills(caller: WeexCaller, req: SpotBillsRequest = {}, options: CallOptions = {}): Promise<SpotBill[]> {
  const res = await caller.call({ ...operationRequest('spotBills', req), ...options });
  return normaliseList(res.data, { ids: ['billId'], times: ['cTime'], integers: ['coinId'] }, 'spotBills');
}
