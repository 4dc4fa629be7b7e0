import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Header that tells a client it talked to the simulator, not to WEEX. */
export const SIMULATOR_HEADER = 'X-Weex-Simulator';

/**
 * Keeps every request body as the exact string received, since the signature covers those bytes, and marks every
 * response (errors and 404s included) with {@link SIMULATOR_HEADER}.
 */
export function configureFastify(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  const keepText = (_req: unknown, body: string | Buffer, done: (err: null, body: string) => void) => done(null, body.toString());
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, keepText);
  fastify.addContentTypeParser('*', { parseAs: 'string' }, keepText);
  fastify.addHook('onSend', async (_req, reply, payload) => {
    reply.header(SIMULATOR_HEADER, '1');
    return payload;
  });
}
