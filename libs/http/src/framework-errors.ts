import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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

/** Node's refusals of what is not yet a request (Fastify's `clientErrorHandler`), by the parser's code. */
const CLIENT_ERRORS: Record<string, { statusCode: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { statusCode: 431, code: 'HEADERS_TOO_LARGE', message: 'the request line and headers together exceed 16 KiB' },
  ERR_HTTP_REQUEST_TIMEOUT: { statusCode: 408, code: 'REQUEST_TIMEOUT', message: 'the request did not arrive in time' },
};

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (a URL and headers over 16 KiB, bytes that are not
 * HTTP) is answered with an ErrorBody too, on the raw socket since there is no request to reply to, and closed.
 */
export function clientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const answer = CLIENT_ERRORS[error.code ?? ''] ?? { statusCode: 400, code: 'BAD_REQUEST', message: 'the request is not valid HTTP/1.1' };
  const requestId = randomUUID();
  const body = JSON.stringify({ ...answer, requestId } satisfies ErrorBody);
  const head = [
    `HTTP/1.1 ${answer.statusCode} ${STATUS_CODES[answer.statusCode]}`,
    'Content-Type: application/json; charset=utf-8',
    `X-Request-Id: ${requestId}`,
  ];
  head.push(...Object.entries(API_HEADERS).map(([name, value]) => `${name}: ${value}`), `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close');
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
