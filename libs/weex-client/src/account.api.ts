import { normaliseList, normaliseRecord, type RecordShape } from './normalise.js';
import { operationRequest } from './operation-request.js';
import { OPERATIONS } from './operations.js';
import { checkTime, DAY_MS } from './request-validation.js';
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
  const res = await caller.call({ ...operationRequest('income', { ...req, ...incomeTimes(req, caller.now()) }), ...options });
  return normaliseRecord(res.data, INCOME_PAGE, 'income');
}

const { maxDays, endAloneDays } = OPERATIONS.income.params.window;

/**
 * The spec's time rules (the table's window), applied here so that both times are always sent (one client reports
 * that the exchange rejects a time sent alone): only endTime → startTime = endTime − 30 days; only startTime →
 * endTime = now, so startTime within 100 days of now; both → at most 100 days apart (checked with the request).
 */
function incomeTimes(req: IncomeRequest, now: Millis): { startTime?: Millis; endTime?: Millis } {
  const op = 'income';
  const startTime = checkTime(op, 'startTime', req.startTime);
  const endTime = checkTime(op, 'endTime', req.endTime);
  if (startTime !== undefined && endTime !== undefined) return { startTime, endTime };
  if (endTime !== undefined) return { startTime: Math.max(0, endTime - endAloneDays * DAY_MS), endTime };
  if (startTime !== undefined) {
    if (startTime > now) throw WeexApiError.invalidParameter(op, 'startTime', 'must not be in the future when endTime is not given');
    if (now - startTime > maxDays * DAY_MS) {
      throw WeexApiError.invalidParameter(op, 'startTime', `must be within ${maxDays} days of now when endTime is not given`);
    }
    return { startTime, endTime: now };
  }
  return {};
}

export async function symbolConfig(caller: WeexCaller, req: { symbol?: SymbolInput } = {}, options: CallOptions = {}): Promise<SymbolConfig[]> {
  const res = await caller.call({ ...operationRequest('symbolConfig', req), ...options });
  return normaliseList(res.data, {}, 'symbolConfig');
}
