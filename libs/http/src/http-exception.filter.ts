import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from './error-body.js';
import { internalErrorBody, requestErrorBody, UNSUPPORTED_MEDIA_TYPE } from './request-error.js';
import { statementStopped } from '#libs/database';
import { LISTED_ERRORS, ValidationFailedException } from '#libs/validation';

/**
 * Every error leaves as an ErrorBody. Unknown errors become 500 with an error id that is also in the log. An exception
 * with `retryAfterS` (a 429, or a 409 for an Idempotency-Key in flight) also sets Retry-After. A statement PostgreSQL
 * stopped (API_STATEMENT_TIMEOUT_MS, or a cancel) is a 503 that says so.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.send(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Also the error handler of routes mounted on Fastify outside Nest's routing (the dashboard's pages). */
  send(exception: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const body = this.toBody(exception, String(request.id));
    if (body.code === 'PAYLOAD_TOO_LARGE') body.message = tooLarge(request);
    const retryAfterS = (exception as { retryAfterS?: unknown } | undefined)?.retryAfterS;
    if (typeof retryAfterS === 'number') reply.header('retry-after', String(retryAfterS));
    return reply.status(body.statusCode).send(body);
  }

  toBody(exception: unknown, requestId: string): ErrorBody {
    if (exception instanceof ValidationFailedException) {
      const { errors, message } = exception;
      const listed = errors.length > LISTED_ERRORS ? `${message}: ${errors.length} errors, the first ${LISTED_ERRORS} listed` : message;
      return { statusCode: 400, code: 'VALIDATION_FAILED', message: listed, errors: errors.slice(0, LISTED_ERRORS), requestId };
    }
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const response = exception.getResponse();
      const code = (response as { code?: string }).code;
      // Nest's own 415 says nothing of what is taken; one of ours, with a code, says it.
      const message =
        statusCode === 415 && code === undefined
          ? UNSUPPORTED_MEDIA_TYPE
          : typeof response === 'string'
            ? response
            : String((response as { message?: unknown }).message ?? exception.message);
      return { statusCode, code: code ?? (HttpStatus[statusCode] as string | undefined) ?? 'ERROR', message, requestId };
    }
    const requestError = requestErrorBody(exception, requestId);
    if (requestError) return requestError;
    const stopped = statementStopped(exception);
    if (stopped) return this.stoppedBody(stopped, requestId);
    const errorId = randomUUID();
    this.logger.error(`unhandled error ${errorId} (request ${requestId})`, exception instanceof Error ? exception.stack : String(exception));
    return internalErrorBody(requestId, errorId);
  }

  private stoppedBody(why: 'timeout' | 'cancelled', requestId: string): ErrorBody {
    if (why === 'cancelled') {
      // Mostly our own cancel of a request whose client went away: nobody reads the answer.
      return { statusCode: 503, code: 'QUERY_CANCELLED', message: 'a database statement of this request was cancelled; try again', requestId };
    }
    this.logger.warn(`request ${requestId}: a database statement ran longer than API_STATEMENT_TIMEOUT_MS and was stopped`);
    return {
      statusCode: 503,
      code: 'QUERY_TIMEOUT',
      message:
        'a database statement of this request ran longer than the statement timeout (API_STATEMENT_TIMEOUT_MS) and was stopped: ask for a narrower window, or try again later',
      requestId,
    };
  }
}

/** A 413 names the limit of the route it came to, and the setting that raises it where there is one. */
function tooLarge(request: FastifyRequest): string {
  const { bodyLimit, config } = request.routeOptions;
  const setting = (config as { bodyLimitSetting?: string } | undefined)?.bodyLimitSetting;
  return `the body is larger than ${bodyLimit} bytes, the most this path takes${setting ? ` (${setting})` : ''}`;
}
