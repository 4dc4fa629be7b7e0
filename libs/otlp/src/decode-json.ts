import { LosslessNumber } from 'lossless-json';
import { JsonLimitError, parseJson } from '#libs/common';
import { MAX_NESTING, tooManySpans } from './decode-protobuf.js';
import { OtlpRequestError } from './otlp-request.error.js';
import { nestsTooDeep, tooManyValues } from './scan-protobuf.js';
import type { AttributeValue, Attributes, DecodeLimits, OtlpSpan } from './otlp-span.js';

type Json = Record<string, unknown>;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const UINT64_MAX = (1n << 64n) - 1n;
/**
 * JSON levels the parser may recurse through: a message is an object, in an array when repeated, and the deepest may
 * hold an empty array, so no request within MAX_NESTING messages nests deeper. The messages themselves are counted as
 * the reader goes, as in protobuf, so that both encodings refuse the same requests, naming where.
 */
const JSON_LEVELS = 2 * MAX_NESTING + 2;

/**
 * Decodes an ExportTraceServiceRequest in OTLP's JSON encoding (proto3's JSON mapping, but trace and span ids in hex
 * and enums as integers): lowerCamelCase keys, unknown keys ignored, 64-bit integers as decimal strings or numbers,
 * read losslessly (never through a JS number). A value of the wrong type is a 400 that names its path.
 */
export function decodeJsonTraces(body: Buffer, limits: DecodeLimits): OtlpSpan[] {
  let request: unknown;
  try {
    const text = strictUtf8.decode(body);
    request = text.trim() === '' ? {} : parseJson(text, JSON_LEVELS, limits.maxValues);
  } catch (error) {
    if (error instanceof JsonLimitError && error.limit === 'values') throw tooManyValues(limits.maxValues);
    const why =
      (error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA' ? 'it is not valid UTF-8' : `it is not JSON (${(error as Error).message})`;
    throw new OtlpRequestError('OTLP_UNDECODABLE', `the body is not an ExportTraceServiceRequest in JSON: ${why}`);
  }
  const reader = new JsonReader();
  const resourceSpans = reader.list(reader.object(request, ''), 'resourceSpans', '');
  const scopes = resourceSpans.map((r, i) => reader.list(reader.object(r, `resourceSpans[${i}]`), 'scopeSpans', `resourceSpans[${i}]`));
  const count = scopes.reduce(
    (sum, list, i) => sum + list.reduce<number>((n, s, j) => n + reader.list(reader.object(s, `resourceSpans[${i}].scopeSpans[${j}]`), 'spans', '').length, 0),
    0,
  );
  if (count > limits.maxSpans) throw tooManySpans(count, limits.maxSpans);
  const spans: OtlpSpan[] = [];
  resourceSpans.forEach((r, i) => {
    const resourcePath = `resourceSpans[${i}].resource`;
    const resourceObject = (r as Json).resource;
    const resource =
      resourceObject === undefined || resourceObject === null ? new Map() : reader.attributes(reader.object(resourceObject, resourcePath), resourcePath, 2);
    scopes[i].forEach((s, j) => {
      reader.list(s as Json, 'spans', '').forEach((span, k) => spans.push(reader.span(span, `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`, resource)));
    });
  });
  return spans;
}

/** How deep a span is: the request, its ResourceSpans, ScopeSpans, then the Span. */
const SPAN_DEPTH = 3;

class JsonReader {
  span(value: unknown, path: string, resource: Attributes): OtlpSpan {
    const span = this.object(value, path);
    const status = span.status === undefined || span.status === null ? {} : this.object(span.status, `${path}.status`);
    return {
      traceId: this.hexId(span.traceId, `${path}.traceId`),
      spanId: this.hexId(span.spanId, `${path}.spanId`),
      parentSpanId: this.hexId(span.parentSpanId, `${path}.parentSpanId`),
      name: this.string(span.name, `${path}.name`),
      kind: this.int32(span.kind, `${path}.kind`),
      startTimeUnixNano: this.uint64(span.startTimeUnixNano, `${path}.startTimeUnixNano`),
      endTimeUnixNano: this.uint64(span.endTimeUnixNano, `${path}.endTimeUnixNano`),
      attributes: this.attributes(span, path, SPAN_DEPTH),
      events: this.list(span, 'events', path).map((e, i) => {
        const event = this.object(e, `${path}.events[${i}]`);
        return {
          name: this.string(event.name, `${path}.events[${i}].name`),
          timeUnixNano: this.uint64(event.timeUnixNano, `${path}.events[${i}].timeUnixNano`),
          attributes: this.attributes(event, `${path}.events[${i}]`, SPAN_DEPTH + 1),
        };
      }),
      statusCode: this.int32(status.code, `${path}.status.code`),
      statusMessage: this.string(status.message, `${path}.status.message`),
      resource,
    };
  }

  /** `attributes` (or a kvlist's `values`) of `holder`, a message `depth` deep: [{ key, value: AnyValue }]. */
  attributes(holder: Json, path: string, depth: number, field = 'attributes'): Attributes {
    const attributes: Attributes = new Map();
    this.list(holder, field, path).forEach((item, i) => {
      const kv = this.object(item, `${path}.${field}[${i}]`);
      attributes.set(this.string(kv.key, `${path}.${field}[${i}].key`), this.anyValue(kv.value, `${path}.${field}[${i}].value`, depth + 2));
    });
    return attributes;
  }

  /** An AnyValue, `depth` messages deep (the request is 0): arrays and kvlists are where a request can nest. */
  anyValue(value: unknown, path: string, depth: number): AttributeValue {
    if (value === undefined || value === null) return null;
    if (depth > MAX_NESTING) throw nestsTooDeep(path, MAX_NESTING, 'JSON');
    const v = this.object(value, path);
    if (v.stringValue !== undefined) return this.string(v.stringValue, `${path}.stringValue`);
    if (v.boolValue !== undefined) {
      if (typeof v.boolValue !== 'boolean') throw this.wrong(`${path}.boolValue`, 'true or false');
      return v.boolValue;
    }
    if (v.intValue !== undefined) return this.int64(v.intValue, `${path}.intValue`);
    if (v.doubleValue !== undefined) return this.double(v.doubleValue, `${path}.doubleValue`);
    if ((v.arrayValue ?? v.kvlistValue) !== undefined && depth + 1 > MAX_NESTING) {
      throw nestsTooDeep(`${path}.${v.arrayValue !== undefined ? 'arrayValue' : 'kvlistValue'}`, MAX_NESTING, 'JSON');
    }
    if (v.arrayValue !== undefined) {
      const array = this.object(v.arrayValue, `${path}.arrayValue`);
      return this.list(array, 'values', `${path}.arrayValue`).map((item, i) => this.anyValue(item, `${path}.arrayValue.values[${i}]`, depth + 2));
    }
    if (v.kvlistValue !== undefined) return this.attributes(this.object(v.kvlistValue, `${path}.kvlistValue`), `${path}.kvlistValue`, depth + 1, 'values');
    if (v.bytesValue !== undefined) {
      const text = this.string(v.bytesValue, `${path}.bytesValue`);
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw this.wrong(`${path}.bytesValue`, 'base64');
      return new Uint8Array(Buffer.from(text, 'base64'));
    }
    return null;
  }

  object(value: unknown, path: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.wrong(path || 'the body', 'an object');
    return value as Json;
  }

  list(holder: Json, field: string, path: string): unknown[] {
    const value = holder[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw this.wrong(path ? `${path}.${field}` : field, 'an array');
    return value;
  }

  string(value: unknown, path: string): string {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw this.wrong(path, 'a string');
    return value;
  }

  hexId(value: unknown, path: string): string {
    const text = this.string(value, path);
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw this.wrong(path, 'hex digits');
    return text.toLowerCase();
  }

  int32(value: unknown, path: string): number {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) throw this.wrong(path, 'a 32-bit integer');
    return value;
  }

  uint64(value: unknown, path: string): bigint {
    const n = this.integer(value, path, 'an unsigned 64-bit integer (a decimal string or number)');
    if (n < 0n || n > UINT64_MAX) throw this.wrong(path, 'an unsigned 64-bit integer (a decimal string or number)');
    return n;
  }

  int64(value: unknown, path: string): bigint {
    const n = this.integer(value, path, 'a 64-bit integer (a decimal string or number)');
    if (n !== BigInt.asIntN(64, n)) throw this.wrong(path, 'a 64-bit integer (a decimal string or number)');
    return n;
  }

  private integer(value: unknown, path: string, what: string): bigint {
    if (value === undefined || value === null) return 0n;
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
    if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return BigInt(value);
    throw this.wrong(path, what);
  }

  private double(value: unknown, path: string): number {
    if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
    if (value instanceof LosslessNumber) return Number(value.value);
    if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return Number(value);
    if (typeof value === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return Number(value);
    throw this.wrong(path, 'a number');
  }

  private wrong(path: string, what: string): OtlpRequestError {
    return new OtlpRequestError('OTLP_UNDECODABLE', `${path} must be ${what}`);
  }
}
