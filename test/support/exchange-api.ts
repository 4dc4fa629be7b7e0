import { parseJson } from '#libs/common';
import type { WeightStats } from '../../apps/exchange-sim/src/index.js';
import type { GatewaySuite } from './gateway-suite.js';
import type { WireType } from './weex-spec-fields.js';

export const SIM_UID = '8000000001';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed losslessly, so that an ID sent as a bare number would show as a bigint, not a rounded number. */
  body: any;
}

/** Calls the gateway of a suite with an agent key, over real HTTP. */
export function apiCaller(suite: GatewaySuite, key: string) {
  const send = async (method: 'GET' | 'POST', path: string, body?: string): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${suite.harness!.apiUrl}${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? parseJson(text) : undefined };
  };
  return {
    get: (path: string) => send('GET', path),
    /** `body` is sent as is: a string keeps bare 18-digit integers exact. */
    post: (path: string, body: string | object) => send('POST', path, typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

/** The account's data as the simulator holds it now. */
export function simData(suite: GatewaySuite) {
  return suite.harness!.simulator.state.account(SIM_UID)!.data;
}

/** Weight the simulator charged so far, by IP and UID: unchanged means no request reached the exchange. */
export function simWeight(suite: GatewaySuite): WeightStats {
  return structuredClone(suite.harness!.simulator.state.stats().weight);
}

const isTime = (name: string) => /time$/i.test(name) || name === 'goodTillDate';

/**
 * Every field of the spec table is present in the API's record with the type the gateway promises (64-bit IDs as
 * digit strings, times as ms numbers, amounts as strings), and equals the simulator's record digit for digit.
 */
export function expectSameRecord(api: Record<string, unknown>, sim: object, fields: Record<string, WireType>): void {
  const held = sim as Record<string, unknown>;
  for (const [name, type] of Object.entries(fields)) {
    const value = api[name];
    const ok =
      isTime(name) || type === 'Integer'
        ? Number.isSafeInteger(value)
        : type === 'Long'
          ? typeof value === 'string' && /^\d+$/.test(value)
          : typeof value === (type === 'Boolean' ? 'boolean' : 'string');
    if (!ok) throw new Error(`${name} (${type}) has the wrong type in the API answer: ${typeof value} ${String(value)}`);
    if (String(value) !== String(held[name])) throw new Error(`${name}: API has ${String(value)}, the simulator ${String(held[name])}`);
  }
}

/** Each API record matches the simulator's record with the same key, field by field; returns how many matched. */
export function expectAllHeld(apiRecords: Record<string, unknown>[], simRecords: object[], key: string, fields: Record<string, WireType>): void {
  const byKey = new Map(simRecords.map((r) => [String((r as Record<string, unknown>)[key]), r]));
  expect(apiRecords.length).toBeGreaterThan(0);
  for (const record of apiRecords) {
    const held = byKey.get(String(record[key]));
    if (!held) throw new Error(`${key} ${String(record[key])} is not held by the simulator`);
    expectSameRecord(record, held, fields);
  }
}

/** A 400 in the one error shape naming exactly these fields, each message containing its path. */
export function expectFieldErrors(answer: ApiAnswer, paths: string[]): void {
  expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  expect(answer.body).toMatchObject({ statusCode: 400, message: expect.any(String), requestId: expect.any(String) });
  const errors = answer.body.errors as Array<{ path: string; message: string }>;
  expect([...new Set(errors.map((e) => e.path))].sort()).toEqual([...paths].sort());
  for (const error of errors) expect(error.message).toContain(error.path);
}
