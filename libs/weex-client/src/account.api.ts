import { normaliseList, normaliseRecord, type RecordShape } from './normalise.js';
import { buildBody, buildQuery } from './query-string.js';
import { checkId, checkInt, checkTime, checkWindow, DAY_MS } from './request-validation.js';
import { toV3Symbol } from './symbols.js';
import type { IncomePage, IncomeRequest, Position, SymbolConfig } from './types/account.types.js';
import type { CallOptions, Millis, SymbolInput } from './types/common.types.js';
import { WeexApiError } from './weex-api.error.js';
import type { WeexCaller } from './weex-request-runner.js';

const POSITION: RecordShape = {
  ids: ['id', 'separatedOpenOrderId', 'createdMatchSequenceId', 'updatedMatchSequenceId'],
  times: ['createdTime', 'updatedTime'],
};
const INCOME_PAGE: RecordShape = { records: { items: { ids: ['billId'], times: ['time'] } } };

export async function allPositions(caller: WeexCaller, options: CallOptions = {}): Promise<Position[]> {
  const res = await caller.call({ operation: 'allPositions', ...options });
  return normaliseList(res.data, POSITION, 'allPositions');
}

export async function income(caller: WeexCaller, req: IncomeRequest = {}, options: CallOptions = {}): Promise<IncomePage> {
  const op = 'income';
  const limit = checkInt(op, 'limit', req.limit, 1, 100, 20);
  const { startTime, endTime } = incomeTimes(req, caller.now());
  const body = buildBody([
    ['asset', req.asset],
    ['symbol', req.symbol === undefined ? undefined : toV3Symbol(req.symbol, op)],
    ['incomeType', req.incomeType],
    ['startTime', startTime],
    ['endTime', endTime],
    ['limit', limit],
    ['nextKey', checkId(op, 'nextKey', req.nextKey)],
  ]);
  const res = await caller.call({ operation: op, body, ...options });
  return normaliseRecord(res.data, INCOME_PAGE, op);
}

/**
 * The spec's time rules, applied here so that both times are always sent (one client reports that the exchange
 * rejects a time sent alone): only endTime → startTime = endTime − 30 days; only startTime → endTime = now;
 * both → at most 100 days apart.
 */
function incomeTimes(req: IncomeRequest, now: Millis): { startTime?: Millis; endTime?: Millis } {
  const op = 'income';
  const startTime = checkTime(op, 'startTime', req.startTime);
  const endTime = checkTime(op, 'endTime', req.endTime);
  if (startTime !== undefined && endTime !== undefined) {
    checkWindow(op, startTime, endTime, 100);
    return { startTime, endTime };
  }
  if (endTime !== undefined) return { startTime: Math.max(0, endTime - 30 * DAY_MS), endTime };
  if (startTime !== undefined) {
    if (startTime > now) throw WeexApiError.invalidParameter(op, 'startTime', 'must not be in the future when endTime is not given');
    if (now - startTime > 100 * DAY_MS) {
      throw WeexApiError.invalidParameter(op, 'startTime', 'must be within 100 days of now when endTime is not given');
    }
    return { startTime, endTime: now };
  }
  return {};
}

export async function symbolConfig(caller: WeexCaller, req: { symbol?: SymbolInput } = {}, options: CallOptions = {}): Promise<SymbolConfig[]> {
  const op = 'symbolConfig';
  const query = buildQuery([['symbol', req.symbol === undefined ? undefined : toV3Symbol(req.symbol, op)]]);
  const res = await caller.call({ operation: op, query, ...options });
  return normaliseList(res.data, {}, op);
}
