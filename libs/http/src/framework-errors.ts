import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from './error-body.js';
import { API_HEADERS } from './security-headers.js';

/** Fastify's own refusals, before any route: said in an ErrorBody, without echoing the path back. */
const ANSWERS: Record<string, { statusCode: number; code: string; message: string }> = {
  FST_ERR_BAD_URL: { statusCode: 400, code: 'BAD_REQUEST', message: 'the URL holds a percent-encoding that is not UTF-8 text' },
  FST_ERR_MAX_PARAM_LENGTH: { statusCode: 414, code: 'URI_TOO_LONG', message: 'a path segment is longer than 100 characters' },
};

/** Fastify's `frameworkErrors` option: the errors its router raises before hooks, filters or Nest ever run. */
export function frameworkErrors(error: { code?: string; message: string }, request: FastifyRequest, reply: FastifyReply): void {
  const answer = ANSWERS[error.code ?? ''] ?? { statusCode: 400, code: 'BAD_REQUEST', message: 'the request could not be routed' };
  const body: ErrorBody = { ...answer, requestId: String(request.id) };
  void reply.code(answer.statusCode).header('x-request-id', request.id).headers(API_HEADERS).type('application/json; charset=utf-8').send(JSON.stringify(body));
}
