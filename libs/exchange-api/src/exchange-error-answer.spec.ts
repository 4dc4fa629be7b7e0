import { WeexApiError } from '#libs/weex-client';
import { exchangeErrorAnswer } from './exchange-error-answer.js';
import { ExchangeRateLimitError } from './exchange-rate-limit.error.js';

const fromExchange = (kind: WeexApiError['kind'], operation: string, httpStatus?: number, code?: string) =>
  new WeexApiError(kind, operation, `exchange says no${code ? ` (code ${code})` : ''}`, { httpStatus, code });

describe('exchangeErrorAnswer', () => {
  it.each<[WeexApiError, number, string]>([
    [fromExchange('invalid_request', 'orderInfo', 400, '-2013'), 400, 'EXCHANGE_REJECTED_REQUEST'],
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
    expect(exchangeErrorAnswer(ExchangeRateLimitError.budget('allPositions', 1))).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    const budget = exchangeErrorAnswer(ExchangeRateLimitError.budget('allPositions', 12_001));
    expect(budget).toMatchObject({ retryAfterSeconds: 13, message: expect.stringMatching(/budget .* allPositions was not sent/) });
    expect(budget.exchange).toBeUndefined();
    const exchange = exchangeErrorAnswer(ExchangeRateLimitError.exchange(fromExchange('rate_limited', 'income', 429, '-1003'), 2_500));
    expect(exchange).toMatchObject({ statusCode: 429, retryAfterSeconds: 3, exchange: { operation: 'income', code: '-1003', httpStatus: 429 } });
  });
});
