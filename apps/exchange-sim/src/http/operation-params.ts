import { OPERATIONS, type OperationParams, type Param, type ParamOperation } from '#libs/weex-client';
import { invalidParam, type RequestParams } from './request-params.js';
import { checkRange } from './time-range.js';

/** A v2 symbol as sent (`cmt_btcusdt`) and in v3 notation (`BTCUSDT`). */
export type V2Symbol = { v2: string; v3: string };

type Value<R, V2> = R extends { kind: 'symbol' }
  ? V2 extends true
    ? V2Symbol
    : string
  : R extends { kind: 'id' }
    ? bigint
    : R extends { kind: 'int' | 'millis' }
      ? number
      : R extends { kind: 'ids' | 'texts' }
        ? string[]
        : string;
type Op<K extends ParamOperation> = (typeof OPERATIONS)[K];
type IsV2<K extends ParamOperation> = Op<K>['path'] extends `${string}/v2/${string}` ? true : false;
type Fields<K extends ParamOperation> = Op<K>['params']['fields'];
type Given<F, N extends keyof F> = F[N] extends { required: true } | { default: number } ? N : never;

/** An operation's parameters as WEEX reads them: required ones and those with a default always hold a value. */
export type ParamsOf<K extends ParamOperation> = { [N in keyof Fields<K> as Given<Fields<K>, N>]: Value<Fields<K>[N], IsV2<K>> } & {
  [N in keyof Fields<K> as Exclude<N, Given<Fields<K>, N>>]?: Value<Fields<K>[N], IsV2<K>>;
};

/**
 * Reads a request by its operation's entry in OPERATIONS, the table the client and the gateway read too: each field
 * by its rule (a refused one is WEEX's -1140 naming it), its default when absent, "exactly one of", and the window's
 * order and length. Rules the exchange applies with its clock (a time sent alone, the lookback) stay with the
 * operation.
 */
export function readParams<K extends ParamOperation>(operation: K, params: RequestParams): ParamsOf<K> {
  const { path, params: declared } = OPERATIONS[operation] as { path: string; params: OperationParams };
  const v2 = path.includes('/v2/');
  const values = Object.fromEntries(Object.entries(declared.fields).map(([name, rule]) => [name, read(params, name, rule, v2)]));
  if (declared.exactlyOne) {
    const [a, b] = declared.exactlyOne;
    if ((values[a] === undefined) === (values[b] === undefined)) throw invalidParam(a, `or ${b}: give exactly one of them`);
  }
  if (declared.window?.maxDays !== undefined) checkRange({ start: values.startTime as number, end: values.endTime as number }, declared.window.maxDays);
  return values as ParamsOf<K>;
}

function read(params: RequestParams, name: string, rule: Param, v2: boolean): unknown {
  if (rule.required && !params.has(name) && rule.kind !== 'symbol') throw invalidParam(name, 'is required');
  switch (rule.kind) {
    case 'symbol':
      return v2 ? params.v2Symbol(name) : params.v3Symbol(name);
    case 'id': {
      const id = params.id(name);
      if (id !== undefined && id < rule.min) throw invalidParam(name, `must be an ID of at least ${rule.min}`);
      return id;
    }
    case 'int':
      return params.has(name) || rule.default !== undefined
        ? params.int(name, { min: rule.min, max: rule.max, fallback: rule.default ?? rule.min })
        : undefined;
    case 'millis':
      return params.time(name);
    case 'text':
      return params.string(name);
    case 'enum': {
      const value = params.string(name);
      if (value !== undefined && !rule.values.includes(value)) throw invalidParam(name, `must be one of ${rule.values.join(', ')}`);
      return value;
    }
    case 'ids':
      return params.list(name, 'ids');
    case 'texts':
      return params.list(name, 'strings');
    default:
      // A rule of a new kind: TypeScript stops here until it is read.
      return rule satisfies never;
  }
}
