import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { parseJson, stringifyJson } from '#libs/common';

/** Request bodies above this many bytes get 413. */
export const DEFAULT_BODY_LIMIT = 1_048_576;

/**
 * The Fastify adapter every HTTP app uses: request ids from X-Request-Id (or new ones), and a body limit. With a
 * logger, each request is logged (method, url, status, time) under its request id.
 */
export async function createHttpAdapter(bodyLimit = DEFAULT_BODY_LIMIT, logger?: FastifyBaseLogger): Promise<FastifyAdapter> {
  // Imported on use: the worker reaches this module through the #libs/http barrel (for validation helpers) but serves
  // no HTTP, and Fastify with Nest's adapter would cost it about 12 MB of RSS.
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  return new FastifyAdapter({
    bodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ...(logger ? { loggerInstance: logger } : {}),
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** U+0000 raw, or escaped as \u0000 (an escape only when an even number of backslashes, none included, precede it). */
const NUL = /\u0000|(?:^|[^\\])(?:\\\\)*\\u0000/i;

/** Substring searches, much faster than NUL over a large body: without one of these, NUL cannot match. */
const mayHoldNul = (text: string) => text.includes('\u0000') || text.includes('\\u0000') || text.includes('\\U0000');

/**
 * JSON in and out without precision loss: bodies are decoded as strict UTF-8 and parsed with lossless numbers, and
 * replies print bigint IDs as bare integers. Errors raised while reading a request reach HttpExceptionFilter.
 * Call before `init()`; create the app with `{ bodyParser: false }`.
 */
export function configureHttpApp(app: NestFastifyApplication | INestApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, raw, done) => {
    try {
      const text = utf8.decode(raw as Buffer);
      if (mayHoldNul(text) && NUL.test(text)) {
        const reason = 'body must not contain the character U+0000 (PostgreSQL text cannot hold it)';
        return done(Object.assign(new Error(reason), { statusCode: 400, code: 'UNSUPPORTED_CHARACTER' }), undefined);
      }
      done(null, text.trim() === '' ? undefined : parseJson(text));
    } catch (error) {
      const reason = error instanceof TypeError ? 'body is not valid UTF-8' : `body is not valid JSON: ${(error as Error).message}`;
      done(Object.assign(new Error(reason), { statusCode: 400, code: 'MALFORMED_JSON' }), undefined);
    }
  });
  fastify.setReplySerializer((payload) => stringifyJson(payload));
  // A callback hook, not an async one: it runs for every answer, and needs no promise.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
