import { normaliseList } from './normalise.js';
import { operationRequest } from './operation-request.js';
import type { CallOptions } from './types/common.types.js';
import type { Trade, UserTradesRequest } from './types/trade.types.js';
import type { WeexCaller } from './weex-request-runner.js';

export async function userTrades(caller: WeexCaller, req: UserTradesRequest = {}, options: CallOptions = {}): Promise<Trade[]> {
  const res = await caller.call({ ...operationRequest('userTrades', req), ...options });
  return normaliseList(res.data, { ids: ['id', 'orderId'], times: ['time'] }, 'userTrades');
}
