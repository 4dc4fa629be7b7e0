import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from './error-body.js';
import { internalErrorBody, requestErrorBody, UNSUPPORTED_MEDIA_TYPE } from './request-error.js';
import { LISTED_ERRORS, ValidationFailedException } from '#libs/validation';

/**
 * Every error leaves as an ErrorBody. Unknown errors become 500 with an error id that is also in the log. An exception
 * with `retryAfterS` (a 429, or a 409 for an Idempotency-Key in flight) also sets Retry-After.
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
      const message =
        statusCode === 415
          ? UNSUPPORTED_MEDIA_TYPE
          : typeof response === 'string'
            ? response
            : String((response as { message?: unknown }).message ?? exception.message);
      const code = (response as { code?: string }).code ?? (HttpStatus[statusCode] as string | undefined) ?? 'ERROR';
      return { statusCode, code, message, requestId };
    }
    const requestError = requestErrorBody(exception, requestId);
    if (requestError) return requestError;
    const errorId = randomUUID();
    this.logger.error(`unhandled error ${errorId} (request ${requestId})`, exception instanceof Error ? exception.stack : String(exception));
    return internalErrorBody(requestId, errorId);
  }
}
