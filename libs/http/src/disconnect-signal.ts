import type { ServerResponse } from 'node:http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * An AbortSignal that aborts when the request is over, for a handler to pass to the reads that should stop with it
 * (DatabasePool.rows): `coverage(@DisconnectSignal() signal: AbortSignal)`. Over means the client closed its connection
 * before the answer, or the answer went out while reads were still running: the siblings of one that failed (a 503
 * after a statement timeout) have nobody left to answer.
 */
export const DisconnectSignal = createParamDecorator((_data: unknown, context: ExecutionContext): AbortSignal =>
  disconnectSignal(context.switchToHttp().getResponse<FastifyReply>().raw),
);

export function disconnectSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const closed = () =>
    controller.abort(new Error(response.writableFinished ? 'the request was answered' : 'the client closed the connection before the answer'));
  if (response.destroyed) closed();
  else response.once('close', closed);
  return controller.signal;
}
