import { normaliseList } from './normalise.js';
import { buildQuery } from './query-string.js';
import { checkId, checkInt, checkWindow } from './request-validation.js';
import { toV3Symbol } from './symbols.js';
import type { CallOptions } from './types/common.types.js';
import type { Trade, UserTradesRequest } from './types/trade.types.js';
import type { WeexCaller } from './weex-request-runner.js';

export async function userTrades(caller: WeexCaller, req: UserTradesRequest = {}, options: CallOptions = {}): Promise<Trade[]> {
  const op = 'userTrades';
  checkWindow(op, req.startTime, req.endTime);
  const query = buildQuery([
    ['symbol', req.symbol === undefined ? undefined : toV3Symbol(req.symbol, op)],
    ['orderId', checkId(op, 'orderId', req.orderId)],
    ['startTime', req.startTime],
    ['endTime', req.endTime],
    ['limit', checkInt(op, 'limit', req.limit, 1, 100, 100)],
  ]);
  const res = await caller.call({ operation: op, query, ...options });
  return normaliseList(res.data, { ids: ['id', 'orderId'], times: ['time'] }, op);
}
