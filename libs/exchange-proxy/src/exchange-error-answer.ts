import type { ErrorBody, ExchangeErrorDetails } from '#libs/http';
import { isMalformedRequestCode, isOrderNotFoundCode, OPERATIONS, type WeexApiError } from '#libs/weex-client';
import { ExchangeRateLimitError } from './exchange-rate-limit.error.js';

/** An ErrorBody without its request id, and the Retry-After seconds where waiting helps. */
export type ExchangeErrorAnswer = Omit<ErrorBody, 'requestId'> & { retryAfterSeconds?: number };

/**
 * The one mapping from a failed exchange call to an HTTP answer. The exchange's code and message are passed on;
 * credentials and signatures never reach a WeexApiError, so none can reach the answer.
 */
export function exchangeErrorAnswer(error: WeexApiError | ExchangeRateLimitError): ExchangeErrorAnswer {
  if (error instanceof ExchangeRateLimitError) {
    const seconds = error.retryAfterSeconds;
    const exchange = error.exchangeError ? { exchange: details(error.exchangeError) } : {};
    return {
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `${error.message}; nothing changed. Retry after ${seconds} s`,
      ...exchange,
      retryAfterSeconds: seconds,
    };
  }
  const op = error.operation;
  const exchange = details(error);
  switch (error.kind) {
    case 'invalid_request':
      if (error.httpStatus === undefined) {
        // Refused by the client before sending: a rule the DTOs missed, reported like theirs.
        const path = (error.field ?? '').replace(/\[(\d+)\]/g, '.$1');
        return { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Request validation failed', errors: [{ path, message: error.message }] };
      }
      if (error.httpStatus === 404) {
        return {
          statusCode: 502,
          code: 'EXCHANGE_PATH_NOT_FOUND',
          message: `the exchange does not serve ${op} at the path the gateway used: a gateway fault, not your request`,
          exchange,
        };
      }
      if (isMalformedRequestCode(error.code)) {
        return {
          statusCode: 502,
          code: 'EXCHANGE_REQUEST_MALFORMED',
          message: `the exchange could not read the gateway's ${op} request (${error.message}): a gateway fault, not your request`,
          exchange,
        };
      }
      if (isOrderNotFoundCode(error.code)) {
        return { statusCode: 404, code: 'ORDER_NOT_FOUND', message: `the exchange knows no such order of this account (${op}): ${error.message}`, exchange };
      }
      return { statusCode: 400, code: 'EXCHANGE_REJECTED_REQUEST', message: `the exchange rejected ${op}: ${error.message}`, exchange };
    case 'auth':
      return {
        statusCode: 502,
        code: 'EXCHANGE_AUTH_FAILED',
        message: `the exchange refused the gateway's credentials for this account (${op}): the gateway's WEEX credentials need fixing, not your request`,
        exchange,
      };
    case 'permission':
      return {
        statusCode: 403,
        code: 'EXCHANGE_PERMISSION_DENIED',
        message: `the exchange does not permit ${op} for this account: ${error.message}`,
        exchange,
      };
    case 'rate_limited':
      return { statusCode: 429, code: 'RATE_LIMITED', message: `the exchange rate-limited ${op} (HTTP 429); nothing changed`, exchange, retryAfterSeconds: 1 };
    case 'uncertain':
      return isWrite(op)
        ? {
            statusCode: 504,
            code: 'EXCHANGE_OUTCOME_UNKNOWN',
            message: `${op} was sent but no answer came back, so its outcome is unknown: check the orders (GET /v1/orders/:orderId, /v1/algo-orders) before retrying`,
            exchange,
          }
        : { statusCode: 504, code: 'EXCHANGE_TIMEOUT', message: `the exchange did not answer ${op} in time; nothing changed, retry later`, exchange };
    case 'transient':
    case 'unavailable':
      return { statusCode: 503, code: 'EXCHANGE_UNAVAILABLE', message: `the exchange could not serve ${op} now: ${error.message}`, exchange };
  }
}

function details(error: WeexApiError): ExchangeErrorDetails {
  const { operation, code, httpStatus, message } = error;
  return { operation, ...(code === undefined ? {} : { code }), message, ...(httpStatus === undefined ? {} : { httpStatus }) };
}

function isWrite(operation: string): boolean {
  return (OPERATIONS as Record<string, { write: boolean }>)[operation]?.write ?? true;
}
