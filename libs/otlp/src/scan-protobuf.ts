import { isUtf8 } from 'node:buffer';
import protobuf from 'protobufjs';
import { OtlpRequestError } from './otlp-request.error.js';

/** The limits a scan checks: values (fields on the wire) in the whole message, and how deep messages nest. */
export interface ScanLimits {
  maxValues: number;
  maxDepth: number;
}

/** The wire type each scalar must come with (a packable repeated one may also come packed, as 2). */
const WIRE_TYPE: Record<string, number> = {
  ...Object.fromEntries(['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bool'].map((t) => [t, 0])),
  ...Object.fromEntries(['fixed64', 'sfixed64', 'double'].map((t) => [t, 1])),
  ...Object.fromEntries(['fixed32', 'sfixed32', 'float'].map((t) => [t, 5])),
  string: 2,
  bytes: 2,
};
const WIRE_NAMES = ['a varint (0)', 'eight bytes (1)', 'length-delimited (2)', 'a group start (3)', 'a group end (4)', 'four bytes (5)'];

/**
 * Walks a protobuf message's wire format as `type` describes it, building nothing, so that a request is refused
 * before protobufjs allocates an object per field: 16 MB of empty messages would be 8 million objects. It counts every
 * field, bounds nesting, and checks each known field's wire type, each length against the bytes left and each string
 * field's UTF-8 (proto3 requires it; protobufjs would swap bad bytes for U+FFFD), naming the field's path in errors.
 */
export function scanProtobuf(body: Uint8Array, type: protobuf.Type, limits: ScanLimits): void {
  new WireScanner(body, limits).message(type, body.length, ROOT, 0);
}

/** What the scan needs of a known field, worked out once per type. */
interface FieldPlan {
  field: protobuf.Field;
  wire: number;
  child: protobuf.Type | null;
  utf8: boolean;
}
const plans = new WeakMap<protobuf.Type, Map<number, FieldPlan>>();
function planOf(type: protobuf.Type): Map<number, FieldPlan> {
  let plan = plans.get(type);
  if (!plan) {
    plan = new Map();
    for (const field of type.fieldsArray) {
      const child = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
      plan.set(field.id, { field, wire: child ? 2 : field.resolvedType ? 0 : WIRE_TYPE[field.type], child, utf8: field.type === 'string' });
    }
    plans.set(type, plan);
  }
  return plan;
}

/** Where a field is, kept as a chain and written out only for an error (a scan of a good request writes none). */
class Where {
  constructor(
    readonly parent: Where | null,
    readonly label: string,
    readonly index: number,
  ) {}

  toString(): string {
    if (!this.parent) return 'the body';
    const own = this.index < 0 ? this.label : `${this.label}[${this.index}]`;
    return this.parent.parent ? `${this.parent.toString()}.${own}` : own;
  }
}
const ROOT = new Where(null, '', -1);

class WireScanner {
  private pos = 0;
  private values = 0;

  constructor(
    private readonly body: Uint8Array,
    private readonly limits: ScanLimits,
  ) {}

  /** Scans fields up to `end` (or to the end-group tag of `group`) as fields of `type` (null: unknown, skipped). */
  message(type: protobuf.Type | null, end: number, where: Where, depth: number, group?: number): void {
    if (depth > this.limits.maxDepth) throw nestsTooDeep(String(where), this.limits.maxDepth, 'binary protobuf');
    const plan = type ? planOf(type) : undefined;
    let counts: Map<number, number> | undefined;
    while (this.pos < end) {
      if (++this.values > this.limits.maxValues) throw tooManyValues(this.limits.maxValues);
      const tag = this.varint(where, 5, end);
      const id = Math.floor(tag / 8);
      const wire = tag % 8;
      const known = plan?.get(id);
      let index = -1;
      if (known?.field.repeated) {
        counts ??= new Map();
        index = counts.get(id) ?? 0;
        counts.set(id, index + 1);
      }
      const at = new Where(where, known ? known.field.name : `field ${id}`, index);
      if (id === 0) throw undecodable(`${where} has a field numbered 0, which protobuf does not allow`);
      if (known && wire !== known.wire && !(wire === 2 && known.field.repeated && known.wire !== 2)) {
        throw undecodable(`${at} comes as ${WIRE_NAMES[wire] ?? `wire type ${wire}`}; a ${known.field.type} is ${WIRE_NAMES[known.wire]}`);
      }
      if (wire === 4) {
        if (group === id) return;
        throw undecodable(`${at} ends a group that was not started`);
      }
      if (wire === 3) this.message(null, end, at, depth + 1, id);
      else if (wire === 0) this.varint(at, 10, end);
      else if (wire === 1 || wire === 5) this.skip(wire === 1 ? 8 : 4, end, at);
      else if (wire === 2) this.lengthDelimited(known, end, at, depth);
      else throw undecodable(`${at} has wire type ${wire}, which protobuf does not define`);
    }
    if (group !== undefined) throw undecodable(`the body ends inside ${where}, a group never ended`);
  }

  private lengthDelimited(known: FieldPlan | undefined, end: number, at: Where, depth: number): void {
    const length = this.varint(at, 5, end);
    const start = this.pos;
    this.skip(length, end, at);
    if (known?.child) {
      this.pos = start;
      this.message(known.child, start + length, at, depth + 1);
    } else if (known?.utf8 && !isUtf8(this.body.subarray(start, start + length))) {
      throw undecodable(`${at} is not valid UTF-8, which proto3 requires of a string`);
    }
  }

  /** A varint of at most `maxBytes` bytes, as a number (exact up to 2^53, which a tag or a length never reaches). */
  private varint(at: Where, maxBytes: number, end: number): number {
    let value = 0;
    for (let n = 0; n < maxBytes; n++) {
      if (this.pos >= end) throw cutShort(at);
      const byte = this.body[this.pos++];
      value += (byte & 0x7f) * 2 ** (7 * n);
      if (byte < 0x80) return value;
    }
    throw undecodable(`${at} holds a varint longer than ${maxBytes} bytes`);
  }

  private skip(bytes: number, end: number, at: Where): void {
    if (this.pos + bytes > end) throw cutShort(at);
    this.pos += bytes;
  }
}

/** A path too long to read whole (deep nesting) keeps its start, which says where in the request it is. */
const shortened = (path: string) => (path.length > 120 ? `${path.slice(0, 120)}...` : path);
/** What both encodings say of a value nested deeper than `max` messages (the request being 0), at `path`. */
export const nestsTooDeep = (path: string, max: number, encoding: 'JSON' | 'binary protobuf'): OtlpRequestError =>
  new OtlpRequestError(
    'OTLP_UNDECODABLE',
    `the body is not an ExportTraceServiceRequest in ${encoding}: ${shortened(path)} nests more than ${max} messages deep`,
  );
const undecodable = (why: string) => new OtlpRequestError('OTLP_UNDECODABLE', `the body is not an ExportTraceServiceRequest in binary protobuf: ${why}`);
const cutShort = (at: Where) => undecodable(`${at} runs past the end of the message that holds it (the body is cut short or a length is wrong)`);

export const tooManyValues = (max: number): OtlpRequestError =>
  new OtlpRequestError(
    'OTLP_TOO_MANY_VALUES',
    `the request holds more than OTLP_MAX_VALUES_PER_REQUEST (${max}) values (spans, attributes, events and the fields that make them up): export smaller batches`,
  );
