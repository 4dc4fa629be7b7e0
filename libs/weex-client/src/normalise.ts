import { isLosslessNumber } from 'lossless-json';
import { WeexApiError } from './weex-api.error.js';

/**
 * Which fields of a resource need converting. Everything else that arrives as a number becomes its exact decimal
 * text (amounts, prices, fees stay decimal strings); strings, booleans and nulls pass through.
 */
export interface RecordShape {
  /** 64-bit IDs, number or string on the wire: become digit-exact strings (a list of IDs is converted item by item). */
  ids?: readonly string[];
  /** Times in ms, number or string on the wire: become numbers. */
  times?: readonly string[];
  /** Small integers (such as `coinId`): become numbers. */
  integers?: readonly string[];
  /** Fields holding a record, or a list of records, of another shape. */
  records?: Readonly<Record<string, RecordShape>>;
}

type Convert = (value: unknown) => unknown;

const isNumeric = (v: unknown): v is number | bigint | { value: string } => typeof v === 'number' || typeof v === 'bigint' || isLosslessNumber(v);

/** The exact text of a number as sent: a LosslessNumber keeps it; a bigint or a safe number prints it. */
const numberText = (v: number | bigint | { value: string }): string => (isLosslessNumber(v) ? v.value : String(v));

const toText: Convert = (v) => (isNumeric(v) ? numberText(v) : v);
const toNumber: Convert = (v) => {
  if (isNumeric(v)) return Number(numberText(v));
  return typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
};
const eachOrOne =
  (convert: Convert): Convert =>
  (v) =>
    Array.isArray(v) ? v.map(convert) : convert(v);

/** Converts one object to the resource's normalised form; unknown fields are kept, numbers as decimal text. */
export function normaliseRecord<T>(raw: unknown, shape: RecordShape, operation: string): T {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new WeexApiError('unavailable', operation, `unexpected answer: expected an object, got ${kindOf(raw)}`);
  }
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(raw)) out[field] = convertField(field, value, shape, operation);
  return out as T;
}

/** Converts a list of objects of one shape. */
export function normaliseList<T>(raw: unknown, shape: RecordShape, operation: string): T[] {
  if (!Array.isArray(raw)) throw new WeexApiError('unavailable', operation, `unexpected answer: expected a list, got ${kindOf(raw)}`);
  return raw.map((item) => normaliseRecord<T>(item, shape, operation));
}

function convertField(field: string, value: unknown, shape: RecordShape, operation: string): unknown {
  const nested = shape.records?.[field];
  if (nested) {
    if (value === null || value === undefined) return value;
    return Array.isArray(value) ? normaliseList(value, nested, operation) : normaliseRecord(value, nested, operation);
  }
  if (shape.ids?.includes(field)) return eachOrOne(toText)(value);
  if (shape.times?.includes(field) || shape.integers?.includes(field)) return toNumber(value);
  return plain(value, operation);
}

/** A field no shape describes: numbers become decimal text, at any depth. */
function plain(value: unknown, operation: string): unknown {
  if (Array.isArray(value)) return value.map((item) => plain(item, operation));
  if (value !== null && typeof value === 'object' && !isLosslessNumber(value)) return normaliseRecord(value, {}, operation);
  return toText(value);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;
}
