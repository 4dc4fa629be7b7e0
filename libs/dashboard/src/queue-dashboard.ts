import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { issueSession, readCookie, SESSION_COOKIE, SESSION_MS, validSession } from './dashboard-session.js';
import { signInPage } from './sign-in-page.js';

export const DASHBOARD_PATH = '/admin/queues';
const SIGN_IN_PATH = '/admin/sign-in';

export interface DashboardAuth {
  /** The admin token in force, or undefined when admin access is off. */
  token(): string | undefined;
  /** Whether an Authorization header carries the admin token (constant-time). */
  matches(header: string | string[] | undefined): boolean;
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

  fastify.get(SIGN_IN_PATH, (request: FastifyRequest<{ Querystring: { next?: string } }>, reply) => {
    void reply.type('text/html; charset=utf-8').send(signInPage(SIGN_IN_PATH, safeNext(request.query.next)));
  });
  fastify.post(SIGN_IN_PATH, (request: FastifyRequest<{ Body: unknown }>, reply) => {
    const token = auth.token();
    const given = (request.body as { token?: unknown } | undefined)?.token;
    if (!token || typeof given !== 'string' || !auth.matches(`Bearer ${given}`)) {
      void reply.code(401).send({ statusCode: 401, code: 'UNAUTHORIZED', message: 'token must be the admin token', requestId: request.id });
      return;
    }
    const cookie = `${SESSION_COOKIE}=${issueSession(token)}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}`;
    void reply.header('set-cookie', cookie).send({ signedIn: true });
  });

  await fastify.register(
    async (scope) => {
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const token = auth.token();
        const session = readCookie(request.headers.cookie, SESSION_COOKIE);
        if (token && (auth.matches(request.headers.authorization) || validSession(token, session))) return;
        if (request.method === 'GET' && !request.url.includes('/api/')) {
          return reply.redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(request.url)}`, 303);
        }
        return reply.code(401).send({ statusCode: 401, code: 'UNAUTHORIZED', message: 'sign in at /admin/sign-in or send the admin token', requestId: request.id });
      });
      await scope.register(board.registerPlugin());
    },
    { prefix: DASHBOARD_PATH },
  );
}

/** Only paths of the dashboard itself, so the sign-in page cannot be used to send a browser elsewhere. */
function safeNext(next: string | undefined): string {
  return next && next.startsWith(`${DASHBOARD_PATH}`) && !next.includes('//') ? next : DASHBOARD_PATH;
}
