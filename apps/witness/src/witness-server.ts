import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { MAX_BODY_BYTES, TEXT, type Witness } from '#libs/witness';

/** Where the server writes one line per request outcome; pino's logger is one. */
export interface WitnessLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Past this a body is not drained to answer 413 politely: the connection is closed. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * The witness over HTTP (node:http, no framework: two routes): POST /add-checkpoint with the body as sent, whatever
 * its Content-Type, and GET / or /health with the witness's name and verifier key.
 */
export function createWitnessServer(witness: Witness, logger?: WitnessLogger): Server {
  // A slow or stalled client holds a connection for 30 s at most; a body is 64 KiB.
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    handle(witness, req, res, logger).catch((error: Error) => {
      if (error instanceof ClientGone) return logger?.info({ path: req.url, remote: req.socket.remoteAddress }, 'the client closed the request before its end');
      logger?.error({ err: { message: error.message, stack: error.stack }, path: req.url }, 'add-checkpoint failed');
      if (!res.headersSent) send(res, 500, 'internal error: nothing was cosigned\n');
      else res.destroy();
    });
  });
  return server;
}

async function handle(witness: Witness, req: IncomingMessage, res: ServerResponse, logger?: WitnessLogger): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://witness').pathname;
  if (path === '/add-checkpoint') {
    if (req.method !== 'POST') return send(res, 405, 'add-checkpoint takes POST\n', { allow: 'POST' });
    const body = await readBody(req);
    if (body === undefined) {
      logger?.info({ status: 413, remote: req.socket.remoteAddress }, 'refused');
      return send(res, 413, `request body is larger than ${MAX_BODY_BYTES} bytes; the limit is ${MAX_BODY_BYTES}\n`, { connection: 'close' });
    }
    const answer = await witness.addCheckpoint(body);
    const { status, origin, oldSize, size, reason } = answer;
    logger?.info(
      { status, origin, oldSize: oldSize?.toString(), size: size?.toString(), reason, remote: req.socket.remoteAddress },
      status === 200 ? 'cosigned' : 'refused',
    );
    return send(res, status, answer.body, { 'content-type': answer.contentType });
  }
  if ((path === '/' || path === '/health') && req.method === 'GET') {
    return send(res, 200, `c2sp.org/tlog-witness: POST /add-checkpoint\nname: ${witness.name}\nverifier key: ${witness.verifierKey}\n`);
  }
  return send(res, 404, 'not found: this witness serves POST /add-checkpoint, and GET / or /health\n');
}

/**
 * The body, or undefined when it is larger than the witness takes. A larger body is read to its end and dropped, so
 * that the client, still sending, reads the 413 rather than a reset connection; past DRAIN_LIMIT it is cut off.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > DRAIN_LIMIT) return resolve(undefined);
    const chunks: Buffer[] = [];
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (length > DRAIN_LIMIT) resolve(undefined);
    });
    req.once('end', () => resolve(length <= MAX_BODY_BYTES ? Buffer.concat(chunks, length) : undefined));
    // An aborted request may end in 'error' or only in 'close'; either way there is no one to answer.
    req.once('error', () => reject(new ClientGone()));
    req.once('close', () => reject(new ClientGone()));
  });
}

/** The client closed its request before the body's end. */
class ClientGone extends Error {}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': TEXT,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}
