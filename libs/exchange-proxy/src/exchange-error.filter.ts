import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '#libs/http';
import { WeexApiError } from '#libs/weex-client';
import { exchangeErrorAnswer } from './exchange-error-answer.js';
import { ExchangeRateLimitError } from './exchange-rate-limit.error.js';

/**
 * Answers failed exchange calls of the controllers it is put on (`@UseFilters(ExchangeErrorFilter)`) in the one error
 * shape, with Retry-After on 429. Every other error falls through to the global HttpExceptionFilter.
 */
@Catch(WeexApiError, ExchangeRateLimitError)
export class ExchangeErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(ExchangeErrorFilter.name);

  catch(error: WeexApiError | ExchangeRateLimitError, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { retryAfterSeconds, ...answer } = exchangeErrorAnswer(error);
    const body: ErrorBody = { ...answer, requestId: String(request.id) };
    // IDs and codes only: the error carries no credentials, and the request's payload is not logged.
    const line = `${body.statusCode} ${body.code} for ${error.operation} (request ${body.requestId}${body.exchange?.code ? `, exchange code ${body.exchange.code}` : ''})`;
    if (body.statusCode >= 500 || body.statusCode === 403) this.logger.warn(line);
    else this.logger.debug(line);
    if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(retryAfterSeconds));
    void reply.status(body.statusCode).send(body);
  }
}
