import { IsIn, IsOptional, ValidateIf } from 'class-validator';
import { OPERATIONS, type OperationParams, type Param, type ParamOperation } from '#libs/weex-client';
import { AbsentWith, IsExchangeId, IsExchangeIdList, IsSymbol, IsText, IsTextList } from './param-rules.js';
import { OptionalInt, OptionalMillis, OptionalSymbol, stacked } from './query-fields.js';
import { windowRules } from './window-rules.js';

/**
 * What a field holds once validated. An ID in a query is its digits; in a JSON body it may be a number or a bigint
 * (beyond 2^53), so IDs go to the client through exchangeId(), which reads any of them.
 */
type DtoValue<R> = R extends { kind: 'int' | 'millis' } ? number : R extends { kind: 'ids' } ? unknown[] : R extends { kind: 'texts' } ? string[] : string;
type Fields<K extends ParamOperation> = (typeof OPERATIONS)[K]['params']['fields'];
type Required<F> = { [N in keyof F]: F[N] extends { required: true } ? N : never }[keyof F];
export type OperationDtoOf<K extends ParamOperation> = { [N in Required<Fields<K>>]: DtoValue<Fields<K>[N]> } & {
  [N in Exclude<keyof Fields<K>, Required<Fields<K>>>]?: DtoValue<Fields<K>[N]>;
};

// One class per operation, however many places ask for it: class-validator-jsonschema names schemas by class name.
const DTOS: Partial<Record<ParamOperation, new () => object>> = {};

/**
 * The request DTO of an exchange operation, from the parameters its entry in OPERATIONS declares: one class-validator
 * rule set per field (so the 400 and the OpenAPI entry follow the table), the window's rules, and "exactly one of".
 * Subclass it under the class's name, the operation's (`class CancelPlanParams extends OperationDto('cancelPlan')`):
 * the OpenAPI document names a body's schema after the class that holds its rules.
 */
export function OperationDto<K extends ParamOperation>(operation: K): new () => OperationDtoOf<K> {
  return (DTOS[operation] ??= makeDto(operation)) as new () => OperationDtoOf<K>;
}

function makeDto(operation: ParamOperation): new () => object {
  const params = OPERATIONS[operation].params as OperationParams;
  const name = `${operation[0].toUpperCase()}${operation.slice(1)}Params`;
  const dto = { [name]: class {} }[name];
  const window = params.window && windowRules(params.window);
  for (const [field, param] of Object.entries(params.fields)) {
    const extra = field === 'startTime' || field === 'endTime' ? (window?.[field] ?? []) : [];
    fieldRule(field, param, params, extra)(dto.prototype, field);
  }
  return dto;
}

function fieldRule(field: string, param: Param, params: OperationParams, extra: PropertyDecorator[]): PropertyDecorator {
  const optional = (...rules: PropertyDecorator[]) => (param.required ? stacked(...rules) : stacked(IsOptional(), ...rules));
  switch (param.kind) {
    case 'symbol':
      return param.required ? IsSymbol() : OptionalSymbol();
    case 'id':
      return optional(IsExchangeId(param.min));
    case 'int':
      return OptionalInt(param.min, param.max, param.default);
    case 'millis':
      return OptionalMillis(...extra);
    case 'text':
      return optional(IsText(param.max));
    case 'enum':
      return optional(IsIn(param.values, { message: `${field} must be one of ${param.values.join(', ')}` }));
    case 'ids':
    case 'texts': {
      const pair = params.exactlyOne?.includes(field) ? params.exactlyOne : undefined;
      const missing = `${pair?.join(' or ') ?? field} is required${pair ? ': give exactly one of them' : ''}, as a non-empty list`;
      const list = param.kind === 'ids' ? IsExchangeIdList(missing) : IsTextList(param.max);
      return pair ? oneOfPair(field, pair, list) : optional(list);
    }
  }
}

/**
 * A field of an "exactly one of" pair: the first is checked unless the second is given (so that neither given names
 * the first as missing), the second only when given, and refused beside the first.
 */
function oneOfPair(field: string, [first, second]: readonly [string, string], rule: PropertyDecorator): PropertyDecorator {
  return field === first
    ? stacked(
        ValidateIf((dto: Record<string, unknown>) => dto[first] !== undefined || dto[second] === undefined),
        rule,
      )
    : stacked(
        ValidateIf((dto: Record<string, unknown>) => dto[second] !== undefined),
        rule,
        AbsentWith(first),
      );
}
