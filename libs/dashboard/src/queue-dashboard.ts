import { BadRequestException, Logger, UnauthorizedException } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, clientAddress } from '#libs/accounts';
import { HttpExceptionFilter, pageSecurity, securePage, unreadableUrlText } from '#libs/http';
import { expectNoQuery, validateBody, validateQuery, ValidationFailedException } from '#libs/validation';
import { issueSession, MALFORMED, readSessionCookie, SESSION_COOKIE, SESSION_MS, validSession } from './dashboard-session.js';
import { signInPage, SIGN_IN_SECURITY } from './sign-in-page.js';
import { SIGN_IN_SCRIPT } from './sign-in-script.js';
import { DASHBOARD_PATH, isDashboardPath, SignInDto, SignInQueryDto } from './sign-in.dto.js';

export { DASHBOARD_PATH } from './sign-in.dto.js';
const SIGN_IN_PATH = '/admin/sign-in';
const SIGN_IN_SCRIPT_PATH = '/admin/sign-in.js';

/**
 * bull-board's UI: its own scripts, styles and images; inline styles, which its markup and React components set (no
 * inline script: its config is a JSON data block). Its <base href> is its own path.
 */
const DASHBOARD_SECURITY = pageSecurity({
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  baseUri: ["'self'"],
});
/** bull-board's page links fonts from the internet, which production networks often cannot reach: the page is served without. */
const EXTERNAL_LINK = /<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>/gi;

export interface DashboardAuth {
  /** The admin token in force, or undefined when admin access is off; it keys the session cookies. */
  token(): string | undefined;
  /** Admits the right admin token from any `address`; a wrong one throws 429 while its address is throttled, else 401 (`refusal`). */
  verify(token: string | undefined, address: string, refusal: string): Promise<void>;
}

/**
 * Serves bull-board at /admin/queues behind admin auth: a browser signs in once with the admin token at
 * /admin/sign-in and gets a session cookie (HttpOnly, SameSite=Strict, 8 h); scripts may send the bearer token instead.
 * Register before the app is initialised.
 */
export async function mountQueueDashboard(fastify: FastifyInstance, queues: Queue[], auth: DashboardAuth): Promise<void> {
  const board = new FastifyAdapter();
  board.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: false })),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'AI-log gateway' } },
  });
  const errors = new HttpExceptionFilter();
  const logger = new Logger('QueueDashboard');

  await fastify.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => errors.send(error, request, reply));
    scope.get(SIGN_IN_PATH, (request, reply) => {
      securePage(reply, SIGN_IN_SECURITY);
      const { next } = validateQuery(SignInQueryDto, request.query);
      void reply.type('text/html; charset=utf-8').send(signInPage(SIGN_IN_PATH, SIGN_IN_SCRIPT_PATH, next ?? DASHBOARD_PATH));
    });
    scope.get(SIGN_IN_SCRIPT_PATH, (request, reply) => {
      expectNoQuery(request.query);
      void reply.type('text/javascript; charset=utf-8').send(SIGN_IN_SCRIPT);
    });
    scope.post(SIGN_IN_PATH, async (request, reply) => {
      expectNoQuery(request.query);
      const { token } = validateBody(SignInDto, request.body);
      await auth.verify(token, clientAddress(request), 'token must be the admin token (ADMIN_TOKEN)');
      // Secure when the browser reached us over TLS (directly, or through a proxy named in TRUST_PROXY).
      const secure = request.protocol === 'https' ? '; Secure' : '';
      const cookie = `${SESSION_COOKIE}=${issueSession(auth.token()!)}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}${secure}`;
      return reply.header('set-cookie', cookie).send({ signedIn: true });
    });

    await scope.register(
      async (dashboard) => {
        // bull-board sets its own error handler for its routes: this hook answers its refusals itself.
        dashboard.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
          securePage(reply, DASHBOARD_SECURITY);
          try {
            await admit(request, reply, auth, logger);
            // The API's check of every URL runs in preValidation, whose error bull-board's own handler answers with a 500.
            const unreadable = unreadableUrlText(request);
            if (unreadable) throw new ValidationFailedException([unreadable]);
          } catch (error) {
            const page = request.method === 'GET' && !request.url.includes('/api/') && !request.headers.authorization;
            if (!(error instanceof UnauthorizedException) || !page) return errors.send(error, request, reply);
            const next = isDashboardPath(request.url) ? `?next=${encodeURIComponent(request.url)}` : '';
            return reply.redirect(`${SIGN_IN_PATH}${next}`, 303);
          }
        });
        dashboard.addHook('onSend', async (_request, reply, payload) =>
          typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html') ? payload.replace(EXTERNAL_LINK, '') : payload,
        );
        await dashboard.register(board.registerPlugin());
      },
      { prefix: DASHBOARD_PATH },
    );
  });
}

/**
 * A valid session cookie, or the admin token as a bearer. A session cookie this gateway cannot have set is cleared;
 * with a bearer, the bearer decides, and without one it is a 400 that says so.
 */
async function admit(request: FastifyRequest, reply: FastifyReply, auth: DashboardAuth, logger: Logger): Promise<void> {
  const session = readSessionCookie(request.headers.cookie);
  const bearer = bearerToken(request.headers.authorization);
  if (session === MALFORMED) {
    logger.warn(`malformed ${SESSION_COOKIE} cookie from ${clientAddress(request)} (request ${request.id}): cleared`);
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0`);
    if (bearer === undefined) {
      throw new BadRequestException({
        code: 'MALFORMED_COOKIE',
        message: `the ${SESSION_COOKIE} cookie is not one this gateway set; it is cleared: sign in again`,
      });
    }
  }
  const token = auth.token();
  if (token && typeof session === 'string' && validSession(token, session)) return;
  await auth.verify(bearer, clientAddress(request), 'sign in at /admin/sign-in or send the admin token');
}
