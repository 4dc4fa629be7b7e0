import { normaliseRecord } from './normalise.js';
import type { CallOptions } from './types/common.types.js';
import type { ExchangeInfo, ServerTime } from './types/market.types.js';
import type { WeexCaller } from './weex-request-runner.js';

export async function serverTime(caller: WeexCaller, options: CallOptions = {}): Promise<ServerTime> {
  const res = await caller.call({ operation: 'serverTime', signed: false, ...options });
  return normaliseRecord(res.data, { times: ['serverTime'] }, 'serverTime');
}

export async function exchangeInfo(caller: WeexCaller, options: CallOptions = {}): Promise<ExchangeInfo> {
  const res = await caller.call({ operation: 'exchangeInfo', signed: false, ...options });
  const shape = { times: ['serverTime'], records: { rateLimits: { integers: ['intervalNum', 'limit'] } } };
  const info = normaliseRecord<ExchangeInfo>(res.data, shape, 'exchangeInfo');
  return { ...info, rateLimits: info.rateLimits ?? [] };
}
