import { connect } from 'node:net';
import { once } from 'node:events';
import { startHarness } from '../support/gateway-harness.js';
import { REDIS_URL } from '../support/services.js';
import { createTempDatabase } from '../support/temp-database.js';

// A client that opens connections and sends nothing (a pool warming up, a fetch aborted before its request went out,
// a port scanner) must not hold the API's shutdown: Node does not count such a connection as idle, and before the fix
// the close waited for these sockets to time out (the test then fails on its timeout).
describe('shutdown with connections that never sent a byte', () => {
  it('closes them and finishes', async () => {
    const temp = await createTempDatabase();
    const harness = await startHarness({ DATABASE_URL: temp.url, REDIS_URL });
    try {
      const { port } = new URL(harness.apiUrl);
      const silent = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const socket = connect(Number(port), '127.0.0.1');
          await once(socket, 'connect');
          return socket;
        }),
      );
      // Closed by the server: an end or a reset, either is fine for a connection that carried nothing.
      const closedByServer = silent.map((socket) => new Promise((resolve) => socket.on('error', () => {}).once('close', resolve)));
      await harness.close();
      await Promise.all(closedByServer);
      expect(silent.every((socket) => socket.bytesRead === 0)).toBe(true);
    } finally {
      await temp.drop();
    }
  });
});
