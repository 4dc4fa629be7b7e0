import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

type Directives = Record<string, string[]>;
/** Helmet's options as @fastify/helmet types them (it sees helmet's CommonJS typings, this file the ES module's). */
export type PageSecurity = NonNullable<Parameters<FastifyReply['helmet']>[0]>;

/** What every answer may do, unless its page needs more: load nothing, submit nowhere, be framed by no one. */
const BASE_DIRECTIVES: Directives = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/**
 * The headers every answer gets, JSON ones included: what matters to an answer no browser should render, sniff or
 * frame. helmet's middlewares need no request for these, so their values are taken once; each answer then gets them
 * through Fastify's own headers. @fastify/helmet on every route builds helmet's whole middleware per request, and
 * added 30-45 µs of CPU per request (and about 400 bytes of headers) to a bare Fastify route (autocannon), against
 * about 100 µs of API CPU per ingested log.
 */
export const API_HEADERS: Readonly<Record<string, string>> = headersOf([
  helmet.contentSecurityPolicy({ useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } }),
  helmet.xContentTypeOptions(),
  helmet.referrerPolicy({ policy: 'no-referrer' }),
]);

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

function headersOf(middlewares: Middleware[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) } as unknown as ServerResponse;
  for (const set of middlewares) set({} as IncomingMessage, recorder, () => {});
  return headers;
}

/**
 * Helmet's options for an HTML page: all of helmet's headers, X-Frame-Options DENY, and a CSP of BASE_DIRECTIVES plus
 * the page's own (e.g. `{ scriptSrc: ["'self'"] }`), for `securePage`.
 */
export function pageSecurity(directives: Directives): PageSecurity {
  return { ...PAGE_DEFAULTS, contentSecurityPolicy: { useDefaults: false, directives: { ...BASE_DIRECTIVES, ...directives } } };
}

/** The CSP source that allows one inline `<style>` or `<script>` whose content is exactly `content`. */
export const inlineHash = (content: string): string => `'sha256-${createHash('sha256').update(content).digest('base64')}'`;

const PAGE_DEFAULTS: PageSecurity = {
  // TLS ends at the proxy in front of the gateway, which owns HSTS; over plain HTTP browsers ignore it.
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
};

/** Gives an HTML answer helmet's headers (`reply.helmet`), with the page's CSP in place of the API's. */
export function securePage(reply: FastifyReply, security: PageSecurity): void {
  reply.removeHeader('content-security-policy');
  reply.helmet(security);
}

/**
 * Registers @fastify/helmet for the pages only (`global: false`): a page's handler or hook calls `securePage`.
 * Register before the routes that use it.
 */
export async function registerPageSecurity(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyHelmet, { global: false, ...pageSecurity({}) });
}
