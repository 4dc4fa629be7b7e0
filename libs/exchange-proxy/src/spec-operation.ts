import { INTEGER_MAX, OPERATIONS, type OperationName, type OperationParams, type Param } from '#libs/weex-client';

/**
 * How a description names an exchange operation, from OPERATIONS: its number in the spec, its weights, and the rules
 * of its parameters as a sentence, so that the document says what the 400s check.
 */
export function specOperation(operation: OperationName): string {
  const { spec, ipWeight, uidWeight, params } = OPERATIONS[operation] as { spec?: number; ipWeight: number; uidWeight: number; params?: OperationParams };
  const weights = `weight ${ipWeight} IP / ${uidWeight} UID`;
  const name = spec === undefined ? `Not in the spec's table (${operation}; ${weights})` : `Spec operation ${spec} (${operation}; ${weights})`;
  const rules = params ? operationRules(params) : [];
  return rules.length === 0 ? `${name}.` : `${name}. ${rules.join('; ')}.`;
}

/** The rules of an operation's parameters, one phrase each. */
export function operationRules({ fields, window, exactlyOne }: OperationParams): string[] {
  const required = Object.keys(fields).filter((name) => fields[name].required);
  const rules = required.length === 0 ? [] : [`${required.join(' and ')} required`];
  rules.push(...Object.entries(fields).flatMap(([name, param]) => rangeOf(name, param)));
  if (exactlyOne) rules.push(`exactly one of ${exactlyOne[0]} or ${exactlyOne[1]}`);
  if (window) {
    const { maxDays, lookbackDays, endAloneDays, startAlone } = window;
    rules.push(`endTime ≥ startTime${maxDays === undefined ? '' : `, at most ${maxDays} days after it`}`);
    if (lookbackDays !== undefined) rules.push(`the window within the last ${lookbackDays} days`);
    if (endAloneDays !== undefined) rules.push(`endTime alone: from ${endAloneDays} days before it`);
    if (startAlone !== undefined) rules.push(`startTime alone: to ${startAlone === 'now' ? 'now' : `${startAlone} days after it`}`);
  }
  return rules;
}

function rangeOf(name: string, param: Param): string[] {
  if (param.kind !== 'int') return [];
  const range = param.max === INTEGER_MAX ? `${name} from ${param.min}` : `${name} ${param.min}-${param.max}`;
  return [param.default === undefined ? range : `${range}, default ${param.default}`];
}
