import { once } from 'node:events';
import net from 'node:net';

/** A loopback port nothing listens on: free to listen on, and refused when connected to. */
export async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
