import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closes, when the server closes, the connections that never sent a byte. Fastify closes idle keep-alive connections
 * at close and waits for those with a request under way, but Node does not count a connection that has sent nothing
 * yet as idle: an HTTP client that opened one and gave up (fetch aborted before its request went out, a pool warming
 * up, a port scanner) held the API's shutdown until the socket timed out. Nothing was sent on them, so nothing is lost.
 */
export function closeUnusedConnectionsOnClose(fastify: FastifyInstance): void {
  // Node's parser reads the socket's handle directly (no 'data' events), so bytesRead at close is what tells.
  const open = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  fastify.addHook('preClose', (done) => {
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
}
