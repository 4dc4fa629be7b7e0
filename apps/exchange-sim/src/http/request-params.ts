import { parseJson } from '#libs/common';
import { SimError, SimFailure } from '../errors.js';

/** An integer parameter's bounds and its value when absent. */
export interface IntRange {
  min: number;
  max: number;
  fallback: number;
}

/** A refused parameter: WEEX answers -1140 (v3) / 40020 (v2) with a message that names it. */
export function invalidParam(name: string, detail: string): SimError {
  return new SimError(SimFailure.ParameterInvalid, `Parameter ${name} ${detail}`);
}

/**
 * The parameters of one request, from its query string or its JSON body, read the way WEEX checks them: each getter
 * returns undefined when the parameter is absent and throws {@link invalidParam} when it is malformed.
 */
export class RequestParams {
  private constructor(private readonly values: Record<string, unknown>) {}

  /** Fastify's parsed query: strings, or arrays of strings for a repeated key. */
  static fromQuery(query: unknown): RequestParams {
    return new RequestParams(typeof query === 'object' && query !== null ? { ...(query as Record<string, unknown>) } : {});
  }

  /** A JSON object body, parsed losslessly; an empty body counts as `{}`. */
  static fromJsonBody(rawBody: string): RequestParams {
    if (rawBody.trim() === '') return new RequestParams({});
    let body: unknown;
    try {
      body = parseJson(rawBody);
    } catch {
      throw new SimError(SimFailure.ParameterInvalid, 'Request body is not valid JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new SimError(SimFailure.ParameterInvalid, 'Request body must be a JSON object');
    }
    return new RequestParams(body as Record<string, unknown>);
  }

  /** Absent, null and the empty string all mean "not given". */
  has(name: string): boolean {
    const value = this.values[name];
    return value !== undefined && value !== null && value !== '';
  }

  string(name: string): string | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name];
    if (typeof value !== 'string') throw invalidParam(name, 'must be a string');
    return value;
  }

  /** An integer within `range`, or `range.fallback` when absent. */
  int(name: string, range: IntRange): number {
    if (!this.has(name)) return range.fallback;
    const value = Number(this.integerText(name));
    if (!(value >= range.min && value <= range.max)) {
      throw invalidParam(name, `must be an integer from ${range.min} to ${range.max}`);
    }
    return value;
  }

  /** A Unix time in milliseconds. */
  time(name: string): number | undefined {
    if (!this.has(name)) return undefined;
    const value = Number(this.integerText(name));
    if (!Number.isSafeInteger(value) || value < 0) throw invalidParam(name, 'must be a Unix time in milliseconds');
    return value;
  }

  /** A 64-bit ID, as a JSON integer or a string of digits, kept exact. */
  id(name: string): bigint | undefined {
    if (!this.has(name)) return undefined;
    return BigInt(this.integerText(name));
  }

  requiredId(name: string): bigint {
    const id = this.id(name);
    if (id === undefined) throw invalidParam(name, 'is required');
    return id;
  }

  /** A v3 symbol such as BTCUSDT. */
  v3Symbol(name = 'symbol'): string | undefined {
    const symbol = this.string(name);
    if (symbol !== undefined && !/^[A-Z0-9]{2,30}$/.test(symbol)) {
      throw invalidParam(name, 'must be a symbol such as BTCUSDT');
    }
    return symbol;
  }

  /** A required v2 symbol such as cmt_btcusdt, as sent (`v2`) and in v3 notation (`v3`: BTCUSDT). */
  v2Symbol(name = 'symbol'): { v2: string; v3: string } {
    const symbol = this.string(name);
    if (symbol === undefined) throw invalidParam(name, 'is required');
    if (!/^cmt_[a-z0-9]{2,30}$/.test(symbol)) throw invalidParam(name, 'must be a v2 symbol such as cmt_btcusdt');
    return { v2: symbol, v3: symbol.slice('cmt_'.length).toUpperCase() };
  }

  /** A positive decimal, as a string or a JSON number, returned as its exact text. */
  decimal(name: string): string | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name];
    // A LosslessNumber (a decimal JSON.parse would round) carries its text in `value`.
    const text = typeof value === 'object' && value !== null && 'value' in value ? String(value.value) : typeof value === 'object' ? '' : String(value);
    if (!/^\d+(\.\d+)?$/.test(text) || !/[1-9]/.test(text)) throw invalidParam(name, 'must be a positive decimal number');
    return text;
  }

  /** true or false, as a JSON boolean or the text `true` / `false`. */
  bool(name: string): boolean | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name];
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw invalidParam(name, 'must be true or false');
  }

  /** One of `allowed`, or the error `failure` (WEEX has codes of its own for a bad side, type or timeInForce). */
  oneOf(name: string, allowed: readonly string[], failure: SimFailure = SimFailure.ParameterInvalid): string | undefined {
    const value = this.string(name);
    if (value !== undefined && !allowed.includes(value)) throw new SimError(failure, `Invalid ${name}: must be one of ${allowed.join(', ')}`);
    return value;
  }

  /** A non-empty array of strings; IDs may also be JSON integers and come back as their digits. */
  list(name: string, kind: 'ids' | 'strings'): string[] | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name];
    if (!Array.isArray(value) || value.length === 0) throw invalidParam(name, 'must be a non-empty array');
    return value.map((item) => {
      const text = typeof item === 'string' || (kind === 'ids' && typeof item !== 'object') ? String(item) : '';
      if (kind === 'ids' ? !/^\d+$/.test(text) : text === '') {
        throw invalidParam(name, kind === 'ids' ? 'must hold order IDs (digits)' : 'must hold non-empty strings');
      }
      return text;
    });
  }

  private integerText(name: string): string {
    const value = this.values[name];
    const text = typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number' ? String(value) : '';
    if (!/^-?\d+$/.test(text)) throw invalidParam(name, 'must be an integer');
    return text;
  }
}
