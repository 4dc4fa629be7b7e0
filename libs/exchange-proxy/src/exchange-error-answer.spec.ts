import { readFileSync } from 'node:fs';
import ccxt from 'ccxt';
import { classify, WeexApiError } from '#libs/weex-client';
import { exchangeErrorAnswer } from './exchange-error-answer.js';
import { ExchangeRateLimitError } from './exchange-rate-limit.error.js';

const fromExchange = (kind: WeexApiError['kind'], operation: string, httpStatus?: number, code?: string) =>
  new WeexApiError(kind, operation, `exchange says no${code ? ` (code ${code})` : ''}`, { httpStatus, code });

describe('exchangeErrorAnswer', () => {
  it.each<[WeexApiError, number, string]>([
    [fromExchange('invalid_request', 'orderInfo', 400, '-1140'), 400, 'EXCHANGE_REJECTED_REQUEST'],
    [fromExchange('invalid_request', 'orderInfo', 400, '-3200'), 404, 'ORDER_NOT_FOUND'],
    [fromExchange('invalid_request', 'orderInfo', 404, '-1000'), 502, 'EXCHANGE_PATH_NOT_FOUND'],
    [fromExchange('auth', 'allPositions', 401, '-1047'), 502, 'EXCHANGE_AUTH_FAILED'],
    [fromExchange('permission', 'cancelPlan', 403, '40014'), 403, 'EXCHANGE_PERMISSION_DENIED'],
    [fromExchange('transient', 'income', 500, '-1000'), 503, 'EXCHANGE_UNAVAILABLE'],
    [fromExchange('unavailable', 'income', 521), 503, 'EXCHANGE_UNAVAILABLE'],
    [fromExchange('uncertain', 'openOrders'), 504, 'EXCHANGE_TIMEOUT'],
    [fromExchange('uncertain', 'cancelBatchOrders'), 504, 'EXCHANGE_OUTCOME_UNKNOWN'],
  ])('maps %s to %i %s, passing on the exchange’s code and message', (error, statusCode, code) => {
    const answer = exchangeErrorAnswer(error);
    expect(answer).toMatchObject({ statusCode, code, exchange: { operation: error.operation, message: error.message } });
    expect(answer.exchange?.code).toBe(error.code);
    expect(answer.exchange?.httpStatus).toBe(error.httpStatus);
    expect(answer.retryAfterSeconds).toBeUndefined();
  });

  it('says a cancel without an answer has an unknown outcome', () => {
    expect(exchangeErrorAnswer(fromExchange('uncertain', 'cancelPlan')).message).toMatch(/outcome is unknown/);
  });

  it('reports a request the client refused before sending as a validation error naming the field', () => {
    const answer = exchangeErrorAnswer(WeexApiError.invalidParameter('cancelBatchOrders', 'ids[2]', 'must be digits'));
    expect(answer).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Request validation failed',
      errors: [{ path: 'ids.2', message: 'ids[2] must be digits' }],
    });
  });

  it('gives 429 with Retry-After in whole seconds, with the exchange’s answer when it sent the 429', () => {
    expect(exchangeErrorAnswer(ExchangeRateLimitError.budget('allPositions', 1))).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      retryAfterSeconds: 1,
    });
    const budget = exchangeErrorAnswer(ExchangeRateLimitError.budget('allPositions', 12_001));
    expect(budget).toMatchObject({ retryAfterSeconds: 13, message: expect.stringMatching(/budget .* allPositions was not sent/) });
    expect(budget.exchange).toBeUndefined();
    const exchange = exchangeErrorAnswer(ExchangeRateLimitError.exchange(fromExchange('rate_limited', 'income', 429, '-1003'), 2_500));
    expect(exchange).toMatchObject({ statusCode: 429, retryAfterSeconds: 3, exchange: { operation: 'income', code: '-1003', httpStatus: 429 } });
  });
});

/**
 * Every code of ccxt's WEEX exceptions table (node_modules/ccxt/js/src/weex.js:362-408, `exceptions.exact`) and the
 * answer a caller of GET /v1/orders/:orderId gets for it, the exchange answering HTTP 400 with that code. Written out,
 * so that the table is the documentation (docs/weex-ccxt-facts.md); a ccxt that knows a code more fails the last test.
 */
const CCXT_CODES: Record<string, [number, string]> = {
  // ExchangeError: UNKNOWN_ERROR, SYSTEM_ERROR "please retry later" (weex.js:364-365).
  '-1000': [503, 'EXCHANGE_UNAVAILABLE'],
  '-1054': [503, 'EXCHANGE_UNAVAILABLE'],
  // AuthenticationError, headers missing included (weex.js:366-370, 373-374), and ACCESS_TIMESTAMP_EXPIRED (372):
  // the gateway's credentials or clock, never its caller's fault.
  '-1040': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1041': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1042': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1043': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1044': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1046': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1047': [502, 'EXCHANGE_AUTH_FAILED'],
  '-1049': [502, 'EXCHANGE_AUTH_FAILED'],
  // BadRequest about the request's form, not its values (weex.js:371, 388, 392): the gateway's fault too.
  '-1045': [502, 'EXCHANGE_REQUEST_MALFORMED'],
  '-1135': [502, 'EXCHANGE_REQUEST_MALFORMED'],
  '-1150': [502, 'EXCHANGE_REQUEST_MALFORMED'],
  // PermissionDenied (weex.js:375-382, 397, 403-404).
  '-1050': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1051': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1052': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1053': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1055': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1056': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1057': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1058': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-1190': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-3235': [403, 'EXCHANGE_PERMISSION_DENIED'],
  '-3236': [403, 'EXCHANGE_PERMISSION_DENIED'],
  // Bad parameter values (InvalidOrder, BadSymbol, BadRequest, ArgumentsRequired, weex.js:383-396, 398, 400-401, 405-406).
  '-1115': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1116': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1117': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1121': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1128': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1140': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1141': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1142': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1160': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1170': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1171': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-1180': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-2007': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-3006': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-3007': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-3313': [400, 'EXCHANGE_REJECTED_REQUEST'],
  '-3613': [400, 'EXCHANGE_REJECTED_REQUEST'],
  // "Order does not exist": spot OrderNotFound and contract CONTRACT_ORDER_NOT_EXIST (ccxt: InvalidOrder) (weex.js:399, 402).
  '-2200': [404, 'ORDER_NOT_FOUND'],
  '-3200': [404, 'ORDER_NOT_FOUND'],
};

describe("ccxt's WEEX error codes, classified and answered", () => {
  it.each(Object.entries(CCXT_CODES))('code %s → %j', (code, [statusCode, answerCode]) => {
    const error = new WeexApiError(classify(400, code), 'orderInfo', `exchange says no (code ${code})`, { httpStatus: 400, code });
    const answer = exchangeErrorAnswer(error);
    expect([answer.statusCode, answer.code]).toEqual([statusCode, answerCode]);
    expect(answer.exchange).toEqual({ operation: 'orderInfo', code, httpStatus: 400, message: error.message });
  });

  it("covers every code of ccxt's table (FAILED_ORDER_NOT_FOUND is a batch item's errorMsg, not an answer's code)", () => {
    const exact = (new ccxt.weex() as unknown as { exceptions: { exact: Record<string, unknown> } }).exceptions.exact;
    expect(
      Object.keys(exact)
        .filter((code) => code !== 'FAILED_ORDER_NOT_FOUND')
        .sort(),
    ).toEqual(Object.keys(CCXT_CODES).sort());
  });

  it("documents each answer in the README's list of exchange failures, with its status", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const answers = new Set(Object.values(CCXT_CODES).map(([status, code]) => `\`${status} ${code}\``));
    expect([...answers].filter((answer) => !readme.includes(answer))).toEqual([]);
  });
});
