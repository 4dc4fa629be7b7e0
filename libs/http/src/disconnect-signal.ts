import type { ServerResponse } from 'node:http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * An AbortSignal that aborts when the client closes its connection before the answer is sent, for a handler to pass
 * to the reads that should stop with it (DatabasePool.rows): `coverage(@DisconnectSignal() signal: AbortSignal)`.
 */
export const DisconnectSignal = createParamDecorator((_data: unknown, context: ExecutionContext): AbortSignal =>
  disconnectSignal(context.switchToHttp().getResponse<FastifyReply>().raw),
);

export function disconnectSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  // 'close' comes after the answer is sent too; only a response not finished by then was given up on.
  const closed = () => {
    if (!response.writableFinished) controller.abort(new Error('the client closed the connection before the answer'));
  };
  if (response.destroyed) closed();
  else response.once('close', closed);
  return controller.signal;
}
