import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringifyJson } from '#libs/common';
import { FAILURE_CODES, SimError, SimFailure } from '../errors.js';
import type { Clock } from '../sim-clock.js';
import type { SimState } from '../state/sim-state.js';
import { answeredCode, apiVersionOf, errorBody } from './envelope.js';
import { JSON_CONTENT_TYPE } from './json-response.interceptor.js';

/** Turns every failure into WEEX's error envelope for the request's API version and counts it as a rejection. */
@Catch()
export class SimExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(SimExceptionFilter.name);

  constructor(
    private readonly state: SimState,
    private readonly clock: Clock,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { failure, message, status } = this.describe(exception);
    const version = apiVersionOf(req.url);
    const codes = FAILURE_CODES[failure];
    this.state.recordRejection(answeredCode(version, codes));
    reply
      .status(status)
      .header('content-type', JSON_CONTENT_TYPE)
      .send(stringifyJson(errorBody(version, codes, message, this.clock())));
  }

  private describe(exception: unknown): { failure: SimFailure; message: string; status: number } {
    if (exception instanceof SimError) {
      return { failure: exception.failure, message: exception.message, status: exception.codes.http };
    }
    const status = statusOf(exception);
    if (status === 404) return { failure: SimFailure.NotFound, message: 'Not Found', status };
    // Other client errors (e.g. a body over Fastify's size limit) keep their status and count as bad parameters.
    if (status !== undefined && status >= 400 && status < 500) {
      return { failure: SimFailure.ParameterInvalid, message: messageOf(exception), status };
    }
    const errorId = randomUUID();
    this.logger.error(`unexpected error ${errorId}`, exception instanceof Error ? exception.stack : String(exception));
    return { failure: SimFailure.Internal, message: `Internal error ${errorId}`, status: 500 };
  }
}

function statusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

function messageOf(exception: unknown): string {
  return exception instanceof Error ? exception.message : 'Bad Request';
}
