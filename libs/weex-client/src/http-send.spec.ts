import { createServer } from 'node:net';
import { once } from 'node:events';
import { httpSend } from './http-send.js';

describe('httpSend', () => {
  it('rejects with the reason of a signal aborted before the call, sending nothing and leaving no error unheard', async () => {
    // A server that counts connections: an aborted call must not open one.
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const unheard: unknown[] = [];
    const listen = (error: unknown) => unheard.push(error);
    process.on('uncaughtException', listen);
    try {
      const controller = new AbortController();
      controller.abort(new Error('shutting down'));
      await expect(httpSend(`http://127.0.0.1:${port}/`, { method: 'GET', headers: {}, timeoutMs: 1_000, signal: controller.signal })).rejects.toThrow(
        'shutting down',
      );
      // A request destroyed before anyone listened for its 'error' raised "socket hang up" a tick later, uncaught:
      // it failed whichever test file was running when a shutdown aborted an upload about to start. Its connection
      // attempt and that error come within a turn of the event loop; two turns are waited for, not a time.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(unheard).toEqual([]);
      expect(connections).toBe(0);
    } finally {
      process.off('uncaughtException', listen);
      server.close();
    }
  });
});
