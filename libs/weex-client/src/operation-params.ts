import type { RecordShape } from './normalise.js';
import type { IdInput, Millis, SymbolInput } from './types/common.types.js';

/**
 * The rule of one request parameter, as the spec's parameter tables state it. The table of operations
 * (`OPERATIONS[...].params`) is written in these, and each side reads it its own way: the client checks and sends a
 * request by it, the gateway builds its DTOs (class-validator rules, OpenAPI) from it, the simulator parses by it.
 */
export type ParamRule =
  /** A trading pair; sent in the notation of the operation's path (v3 `BTCUSDT`, v2 `cmt_btcusdt`). */
  | { kind: 'symbol' }
  /** A 64-bit exchange ID from `min`, as its digits. */
  | { kind: 'id'; min: bigint }
  /** An integer in [min, max]; the exchange takes `default` when it is not sent. */
  | { kind: 'int'; min: number; max: number; default: number | undefined }
  /** A Unix time in milliseconds. */
  | { kind: 'millis' }
  /** A non-empty string of at most `max` characters. */
  | { kind: 'text'; max: number }
  /** One of `values`. */
  | { kind: 'enum'; values: readonly string[] }
  /** A non-empty list of 64-bit IDs. */
  | { kind: 'ids' }
  /** A non-empty list of non-empty strings of at most `max` characters each. */
  | { kind: 'texts'; max: number };

export type Param = ParamRule & { required?: true };

/** An operation's answer: a list or one record of a shape, typed `T` (a phantom field, never set). */
export interface Answer<T> {
  list: boolean;
  shape: RecordShape;
  readonly type?: T;
}
export const listOf = <T>(shape: RecordShape): Answer<T[]> => ({ list: true, shape });
export const recordOf = <T>(shape: RecordShape): Answer<T> => ({ list: false, shape });

/**
 * The startTime/endTime window of an operation, as the exchange serves it. Times sent alone are given the other end
 * by the exchange: `endAloneDays` before endTime; `startAlone` is `now` (endTime becomes now) or a number of days.
 */
export interface TimeWindow {
  /** endTime at most this many days after startTime. */
  maxDays?: number;
  /** The window starts at most this many days back. */
  lookbackDays?: number;
  endAloneDays?: number;
  startAlone?: 'now' | number;
  /** The client sends both times, filling in the one not given as the exchange would. */
  sendBoth?: true;
}

export interface OperationParams {
  /** In the order the spec's table lists them, which is the order they are sent in. */
  fields: Readonly<Record<string, Param>>;
  window?: TimeWindow;
  /** Exactly one of these two must be given. */
  exactlyOne?: readonly [string, string];
}

/** The spec's `Integer` (page, coinId) is Java's: at most 2^31 - 1. */
export const INTEGER_MAX = 2 ** 31 - 1;

// The rules the table is written in, one short call each (their literal kinds type the client's requests).
export const symbol = () => ({ kind: 'symbol' }) as const;
export const id = (min = 1n) => ({ kind: 'id', min }) as const;
export const int = <D extends number | undefined = undefined>(min: number, max: number, fallback?: D) =>
  ({ kind: 'int', min, max, default: fallback as D }) as const;
export const millis = () => ({ kind: 'millis' }) as const;
export const text = (max: number) => ({ kind: 'text', max }) as const;
export const oneOf = (values: readonly string[]) => ({ kind: 'enum', values }) as const;
export const ids = () => ({ kind: 'ids' }) as const;
export const texts = (max: number) => ({ kind: 'texts', max }) as const;
export const required = <P extends ParamRule>(param: P) => ({ ...param, required: true }) as const;

/** What a caller of the client gives for a rule. */
type ClientValue<R> = R extends { kind: 'symbol' }
  ? SymbolInput
  : R extends { kind: 'id' }
    ? IdInput
    : R extends { kind: 'ids' }
      ? IdInput[]
      : R extends { kind: 'texts' }
        ? string[]
        : R extends { kind: 'millis' }
          ? Millis
          : R extends { kind: 'int' }
            ? number
            : string;

type Fields<P> = P extends { fields: infer F } ? F : never;
type RequiredKeys<F> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];

/** The request a client method takes, from the operation's declared parameters. */
export type RequestOf<P> = { [K in RequiredKeys<Fields<P>>]: ClientValue<Fields<P>[K]> } & {
  [K in Exclude<keyof Fields<P>, RequiredKeys<Fields<P>>>]?: ClientValue<Fields<P>[K]>;
};
