import { normaliseList, normaliseRecord } from './normalise.js';
import type { Answer, OperationParams, Param, TimeWindow } from './operation-params.js';
import { type OperationAnswer, type OperationName, type OperationRequest, OPERATIONS } from './operations.js';
import { buildBody, buildQuery } from './query-string.js';
import { checkId, checkInt, checkTime, checkWindow, DAY_MS, required } from './request-validation.js';
import { toV2Symbol, toV3Symbol } from './symbols.js';
import type { CallOptions } from './types/common.types.js';
import { WeexApiError } from './weex-api.error.js';
import type { WeexCaller } from './weex-request-runner.js';

/** The operations whose requests the table declares. */
export type ParamOperation = { [K in OperationName]: (typeof OPERATIONS)[K] extends { params: OperationParams } ? K : never }[OperationName];

/** Calls an operation: its request checked and written by the table, its answer normalised by the table's shape. */
export async function callOperation<K extends ParamOperation>(
  caller: WeexCaller,
  operation: K,
  req: OperationRequest<K>,
  options: CallOptions = {},
): Promise<OperationAnswer<K>> {
  const res = await caller.call({ ...operationRequest(operation, req, caller.now()), ...options });
  const { list, shape } = OPERATIONS[operation].answer as Answer<unknown>;
  return (list ? normaliseList(res.data, shape, operation) : normaliseRecord(res.data, shape, operation)) as OperationAnswer<K>;
}

/**
 * A request checked against its operation's declared parameters and written as the exchange takes it: the query of a
 * GET, the JSON body of a POST, parameters in the declared order (the text signed is the text sent). Anything wrong
 * is an `invalid_request` WeexApiError naming the field, thrown before any weight is spent.
 */
export function operationRequest(operation: ParamOperation, req: object, now: number): { operation: ParamOperation; query?: string; body?: string } {
  const { method, path, params } = OPERATIONS[operation];
  const declared = params as OperationParams;
  const given = declared.window?.sendBoth ? withBothTimes(operation, req as Record<string, unknown>, declared.window, now) : (req as Record<string, unknown>);
  if (declared.exactlyOne) {
    const [a, b] = declared.exactlyOne;
    if ((given[a] === undefined) === (given[b] === undefined))
      throw WeexApiError.invalidParameter(operation, a, `or ${b}: exactly one of the two must be given`);
  }
  if ('startTime' in declared.fields) checkWindow(operation, given.startTime as number, given.endTime as number, declared.window?.maxDays);
  const v2 = path.includes('/v2/');
  const values = Object.entries(declared.fields).map(([name, param]) => [name, checked(operation, name, param, given[name], v2)] as const);
  return method === 'GET' ? { operation, query: buildQuery(values as [string, string | number][]) } : { operation, body: buildBody(values) };
}

function checked(op: string, name: string, param: Param, value: unknown, v2: boolean): unknown {
  if (param.required) required(op, name, value);
  else if (value === undefined) return param.kind === 'int' ? param.default : undefined;
  switch (param.kind) {
    case 'symbol':
      return v2 ? toV2Symbol(value as string, op) : toV3Symbol(value as string, op);
    case 'id':
      return checkIdFrom(op, name, value, param.min);
    case 'int':
      return checkInt(op, name, value as number, param.min, param.max);
    case 'millis':
      return checkTime(op, name, value as number);
    case 'text':
    case 'enum':
      return checkText(op, name, value, param);
    case 'ids':
      return nonEmptyList(op, name, value).map((item, i) => checkIdFrom(op, `${name}[${i}]`, item, 1n));
    case 'texts':
      return nonEmptyList(op, name, value).map((item, i) => checkText(op, `${name}[${i}]`, item, { kind: 'text', max: param.max }));
    default:
      // A rule of a new kind: TypeScript stops here until it is read.
      return param satisfies never;
  }
}

function checkIdFrom(op: string, field: string, value: unknown, min: bigint): string {
  const digits = checkId(op, field, value as string)!;
  if (BigInt(digits) < min) throw WeexApiError.invalidParameter(op, field, `must be at least ${min} (got ${digits})`);
  return digits;
}

function checkText(op: string, field: string, value: unknown, param: Param & { kind: 'text' | 'enum' }): string {
  if (param.kind === 'enum') {
    if (!param.values.includes(value as string)) throw WeexApiError.invalidParameter(op, field, `must be one of ${param.values.join(', ')}`);
  } else if (typeof value !== 'string' || value.length === 0 || value.length > param.max) {
    throw WeexApiError.invalidParameter(op, field, `must be a non-empty string of at most ${param.max} characters`);
  }
  return value as string;
}

function nonEmptyList(op: string, field: string, value: unknown): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw WeexApiError.invalidParameter(op, field, 'must be a non-empty list');
  return value;
}

/**
 * Both times, the one not given filled in as the exchange would (`endAloneDays` before endTime; now, or `startAlone`
 * days after startTime), for an exchange that refuses a time sent alone.
 */
function withBothTimes(op: string, req: Record<string, unknown>, window: TimeWindow, now: number): Record<string, unknown> {
  const startTime = checkTime(op, 'startTime', req.startTime as number);
  const endTime = checkTime(op, 'endTime', req.endTime as number);
  if ((startTime === undefined) === (endTime === undefined)) return req;
  if (endTime !== undefined) return { ...req, startTime: Math.max(0, endTime - (window.endAloneDays ?? 0) * DAY_MS) };
  if (window.startAlone !== 'now') return { ...req, endTime: startTime! + (window.startAlone ?? 0) * DAY_MS };
  const days = window.maxDays ?? Infinity;
  if (startTime! > now) throw WeexApiError.invalidParameter(op, 'startTime', 'must not be in the future when endTime is not given');
  if (now - startTime! > days * DAY_MS) throw WeexApiError.invalidParameter(op, 'startTime', `must be within ${days} days of now when endTime is not given`);
  return { ...req, endTime: now };
}
