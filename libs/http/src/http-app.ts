import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { findUnstorableText, jsonMayHoldUnstorableText, parseJson, stringifyJson } from '#libs/common';
import { BodyBytesBudget } from './body-bytes-budget.js';
import { clientError, frameworkErrors } from './framework-errors.js';
import { badlyEncodedQuery } from './query-encoding.js';
import { UNSUPPORTED_MEDIA_TYPE } from './request-error.js';
import { repeatedHeader } from './repeated-headers.js';
import { API_HEADERS, registerPageSecurity } from './security-headers.js';
import { closeUnusedConnectionsOnClose } from './unused-connections.js';
import { type FieldError, ValidationFailedException } from '#libs/validation';

/** Request bodies above this many bytes get 413. */
export const DEFAULT_BODY_LIMIT = 1_048_576;

/**
 * The Fastify adapter every HTTP app uses: request ids from X-Request-Id (or new ones), and a body limit. With a
 * logger, each request is logged (method, url, status, time) under its request id.
 */
export async function createHttpAdapter(bodyLimit = DEFAULT_BODY_LIMIT, logger?: FastifyBaseLogger, trustProxy?: string): Promise<FastifyAdapter> {
  // Imported on use: the worker reaches this module through the #libs/http barrel (libs/audit's report pages) but
  // serves no HTTP, and Fastify with Nest's adapter would cost it about 12 MB of RSS.
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  return new FastifyAdapter({
    bodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    frameworkErrors,
    clientErrorHandler: clientError,
    // Behind a proxy, the client's address (what admin-token throttling counts by) is in X-Forwarded-For.
    ...(trustProxy ? { trustProxy: trustProxy.split(',') } : {}),
    ...(logger ? { loggerInstance: logger } : {}),
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const REPLY = Symbol('reply');

/**
 * Route config (Nest's `@RouteConfig`) of a route whose handler checks its body's strings itself, so that one bad
 * item of a batch does not reject the others: the parser leaves them to it (see {@link CheckedTextRequest}).
 */
export const CHECKS_OWN_TEXT = { checksOwnText: true } as const;

/**
 * Route config of a route that takes its JSON body as the bytes that came (a Buffer), unparsed: the model-call proxy
 * forwards them and hashes them. The budget of bytes in flight still applies.
 */
export const RAW_BODY = { rawBody: true } as const;
/** Route config of a route that also takes `application/x-protobuf` bodies, as bytes (OTLP/HTTP). */
export const RAW_OR_PROTOBUF_BODY = { rawBody: true, protobufBody: true } as const;
const WANTS_RAW = Symbol('wantsRawBody');
const WANTS_PROTOBUF = Symbol('wantsProtobufBody');

/** A request to a route with CHECKS_OWN_TEXT, as the parser leaves it. */
export interface CheckedTextRequest {
  /**
   * True when the body's text may hold a string PostgreSQL cannot store, which the handler must look for; false when
   * the text proves there is none. Only this parser makes a body object, and sets it.
   */
  mayHoldUnstorableText: boolean;
}

/**
 * JSON in and out without precision loss: bodies are decoded as strict UTF-8 and parsed with lossless numbers, and
 * replies print bigint IDs as bare integers. Errors raised while reading a request reach HttpExceptionFilter. Every
 * answer gets the API's security headers; HTML pages add theirs with @fastify/helmet (see security-headers.ts).
 * At most `bodyBytesInFlight` bytes of bodies are parsed and held at once (BodyBytesBudget). Connections that never
 * sent a byte do not hold the close (closeUnusedConnectionsOnClose). Call before `init()` and
 * before any route is added; create the app with `{ bodyParser: false }`.
 */
export async function configureHttpApp(app: NestFastifyApplication | INestApplication, bodyBytesInFlight: number): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // A string PostgreSQL cannot store (U+0000, a lone surrogate), anywhere in a body, gets a 400 naming it, unless the
  // route checks its own text (CHECKS_OWN_TEXT).
  fastify.decorateRequest('mayHoldUnstorableText', false);
  // A RAW_BODY route marks its requests with a hook of its own, so that the parser reads no route config for the others.
  fastify.decorateRequest(WANTS_RAW, false);
  fastify.decorateRequest(WANTS_PROTOBUF, false);
  fastify.addHook('onRoute', (route) => {
    const config = route.config as { rawBody?: boolean; protobufBody?: boolean } | undefined;
    if (!config?.rawBody) return;
    const hooks = route.preParsing === undefined ? [] : [route.preParsing].flat();
    const protobuf = config.protobufBody === true;
    const markRaw: preParsingHookHandler = (request, _reply, payload, done) => {
      (request as unknown as { [WANTS_RAW]: boolean })[WANTS_RAW] = true;
      (request as unknown as { [WANTS_PROTOBUF]: boolean })[WANTS_PROTOBUF] = protobuf;
      done(null, payload);
    };
    route.preParsing = [...hooks, markRaw];
  });
  const budget = new BodyBytesBudget(bodyBytesInFlight);
  // The reply of each request, for the parser: a body's bytes are given back when its answer is sent, or the
  // connection closed before (ServerResponse's 'close' comes in both cases).
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    (request as unknown as { [REPLY]: FastifyReply })[REPLY] = reply;
    done(null, payload);
  });
  // JSON only: a JSON text sent as text/plain is a 415 naming Content-Type, not a body of the wrong kind.
  fastify.removeContentTypeParser('text/plain');
  const withinBudget = (request: FastifyRequest, raw: Buffer, done: (error: Error | null, body?: unknown) => void, parse: () => void) => {
    const bytes = raw.length;
    const reply = (request as unknown as { [REPLY]: FastifyReply })[REPLY];
    const start = () => {
      if (reply.raw.destroyed) {
        budget.release(bytes); // the sender gave up while its body waited
        return done(Object.assign(new Error('the connection closed before the body was read'), { statusCode: 400 }), undefined);
      }
      reply.raw.once('close', () => budget.release(bytes));
      parse();
    };
    if (budget.tryTake(bytes)) start();
    else void budget.wait(bytes).then(start);
  };
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const refusal = charsetRefusal(request.headers['content-type']);
    if (refusal !== undefined) return done(Object.assign(new Error(refusal), { statusCode: 415, code: 'UNSUPPORTED_CHARSET' }), undefined);
    withinBudget(request, raw as Buffer, done, () => {
      if ((request as unknown as { [WANTS_RAW]: boolean })[WANTS_RAW]) done(null, raw);
      else parseBody(request, raw as Buffer, done);
    });
  });
  // Only the routes with RAW_OR_PROTOBUF_BODY take protobuf; every other route refuses it as any unknown type.
  fastify.addContentTypeParser('application/x-protobuf', { parseAs: 'buffer' }, (request, raw, done) => {
    if (!(request as unknown as { [WANTS_PROTOBUF]: boolean })[WANTS_PROTOBUF]) {
      return done(Object.assign(new Error(UNSUPPORTED_MEDIA_TYPE), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }), undefined);
    }
    withinBudget(request, raw as Buffer, done, () => done(null, raw));
  });
  fastify.setReplySerializer((payload) => stringifyJson(payload));
  // A callback hook, not an async one: it runs for every answer, and needs no promise.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id).headers(API_HEADERS);
    done(repeatedHeader(request.raw.rawHeaders));
  });
  // The same for the path's parameters and the query (`/admin/accounts/%00`, `?accountId=%00`), on every route: a
  // callback hook, since it runs for every request.
  fastify.addHook('preValidation', (request, _reply, done) => {
    const unstorable = unreadableUrlText(request);
    done(unstorable ? new ValidationFailedException([unstorable]) : undefined);
  });
  closeUnusedConnectionsOnClose(fastify);
  await registerPageSecurity(fastify);
}

/**
 * The first path parameter or query value that is not text the gateway can read and store (percent-encoding that is
 * not UTF-8, U+0000, a lone surrogate), named; undefined when there is none.
 */
export function unreadableUrlText(request: FastifyRequest): FieldError | undefined {
  // A catch-all route's parameter is Fastify's `*`: named `path`, what it is to the caller.
  const { '*': rest, ...params } = (request.params ?? {}) as Record<string, unknown>;
  const named = rest === undefined ? params : { ...params, path: rest };
  return badlyEncodedQuery(request.url) ?? findUnstorableText(named, '') ?? findUnstorableText(request.query, '');
}

/**
 * Why a JSON body's declared charset is refused, or undefined when it is UTF-8 or not given: JSON is UTF-8 (RFC 8259),
 * and reading Latin-1 bytes as UTF-8 could turn them into other characters without an error.
 */
function charsetRefusal(contentType: string | undefined): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return undefined;
  return `Content-Type's charset must be utf-8, not ${JSON.stringify(charset.slice(0, 40))}: JSON is UTF-8 (RFC 8259)`;
}

/** Decodes and parses a JSON body (see configureHttpApp). */
function parseBody(request: FastifyRequest, raw: Buffer, done: (error: Error | null, body?: unknown) => void): void {
  let text: string;
  let body: unknown;
  try {
    text = utf8.decode(raw);
    body = text.trim() === '' ? undefined : parseJson(text);
  } catch (error) {
    const reason = error instanceof TypeError ? 'body is not valid UTF-8' : `body is not valid JSON: ${(error as Error).message}`;
    return done(Object.assign(new Error(reason), { statusCode: 400, code: 'MALFORMED_JSON' }), undefined);
  }
  // Only then is the route's config read: Fastify makes routeOptions anew on each read.
  if (body !== undefined && jsonMayHoldUnstorableText(text)) {
    if ((request.routeOptions.config as { checksOwnText?: boolean }).checksOwnText) {
      (request as unknown as CheckedTextRequest).mayHoldUnstorableText = true;
    } else {
      const unstorable = findUnstorableText(body, '');
      if (unstorable) return done(new ValidationFailedException([unstorable]), undefined);
    }
  }
  done(null, body);
}
