import { OPERATIONS, operationRequest, type OperationParams, type Param, type ParamOperation } from '#libs/weex-client';
import { validateQuery } from '#libs/validation';
import { readParams } from '../../../../apps/exchange-sim/src/http/operation-params.js';
import { RequestParams } from '../../../../apps/exchange-sim/src/http/request-params.js';
import { OperationDto } from './operation-dto.js';

// The gateway, the client and the simulator read one table: for every query operation, every field and a value on
// each side of its rule, the three give the same verdict.
// Every operation that reads with parameters, read from the table, so that a new one is probed without being listed.
const QUERY_OPERATIONS = (Object.keys(OPERATIONS) as ParamOperation[]).filter(
  (name) => 'params' in OPERATIONS[name] && !OPERATIONS[name].write && Object.keys((OPERATIONS[name].params as OperationParams).fields).length > 0,
);

/** Values on both sides of a rule, as query text, and whether the rule takes each. */
function probes(param: Param): Array<[string, boolean]> {
  switch (param.kind) {
    case 'int':
      return [
        [String(param.min - 1), false],
        [String(param.min), true],
        [String(param.max), true],
        [String(param.max + 1), false],
        ['1.5', false],
      ];
    case 'id':
      return [[String(param.min), true], ...(param.min > 0n ? [[String(param.min - 1n), false] as [string, boolean]] : []), ['12a', false]];
    case 'millis':
      return [
        [String(Date.now() - 1000), true],
        ['-1', false],
        ['x', false],
      ];
    case 'symbol':
      return [
        ['BTCUSDT', true],
        ['BTC-USDT', false],
      ];
    case 'enum':
      return [
        [param.values[0], true],
        ['none_of_them', false],
      ];
    default:
      return [];
  }
}

function verdicts(operation: ParamOperation, field: string, text: string, dto: new () => object) {
  const gateway = attempt(() => validateQuery(dto, { [field]: text }));
  const value =
    ['int', 'millis'].includes((OPERATIONS[operation].params as OperationParams).fields[field].kind) && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  const client = attempt(() => operationRequest(operation, { [field]: value }, Date.now()));
  const simulator = attempt(() => readParams(operation, RequestParams.fromQuery({ [field]: text })));
  return { gateway, client, simulator };
}

const attempt = (f: () => unknown) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

describe('one table of operations, read by the gateway, the client and the simulator', () => {
  const cases = QUERY_OPERATIONS.flatMap((operation) =>
    Object.entries((OPERATIONS[operation].params as OperationParams).fields).flatMap(([field, param]) =>
      probes(param).map(([text, ok]) => [operation, field, text, ok] as const),
    ),
  );

  it.each(cases)('%s %s=%s: all three say %s', (operation, field, text, ok) => {
    expect(verdicts(operation, field, text, OperationDto(operation))).toEqual({ gateway: ok, client: ok, simulator: ok });
  });

  it('probes every rule kind the query operations use', () => {
    expect(cases.length).toBeGreaterThan(60);
  });
});
