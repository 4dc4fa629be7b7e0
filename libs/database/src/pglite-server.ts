import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

export interface PGliteServerOptions {
  /** Interface to listen on. Default `127.0.0.1`: the server has no authentication. */
  host?: string;
  /** TCP port; 0 (the default) picks a free one, read it back from `port`. */
  port?: number;
  /** Connections beyond this are closed as they arrive. Default 32. */
  maxConnections?: number;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
// Messages after which the client waits for an answer, so the messages gathered so far must run now.
const UNIT_ENDS = new Set(['S', 'Q', 'X', 'H', 'c', 'f'].map((c) => c.charCodeAt(0)));
const READY_FOR_QUERY = 'Z'.charCodeAt(0);
const NOTIFICATION = 'A'.charCodeAt(0);
const TERMINATE = 'X'.charCodeAt(0);
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = Buffer.concat([Buffer.from([0x51, 0, 0, 0, 13]), Buffer.from('ROLLBACK\0')]);

interface Connection {
  socket: Socket;
  /** The startup message has arrived: later messages carry a type byte. */
  started: boolean;
  /** The startup message has been answered: the client may be sent notifications. */
  ready: boolean;
  closed: boolean;
  input: Buffer;
  unit: Buffer[];
  /** Units of one connection run in order; each link waits for the previous one. */
  chain: Promise<void>;
  finished: Promise<void>;
}

/**
 * Serves one PGlite instance (a single-user PostgreSQL session) to many `pg` clients over TCP.
 *
 * Every connection shares that one session, so the server runs each client's messages up to a point where the client
 * waits for an answer (Sync, Query, Flush, ...) as one unit, one unit at a time across connections. A connection keeps
 * the session between units while it is inside a transaction or mid-way through an extended-protocol sequence (its last
 * output was not ReadyForQuery), so nobody else's statements land inside its transaction or replace its unnamed
 * statement. Session state that is not transactional (SET, prepared statement names, LISTEN) is shared by all clients.
 *
 * Not `@electric-sql/pglite-socket` (0.2.17): put in this server's place, it fails 3 of the 6 cases of its spec
 * (PGLITE_SERVER=pglite-socket runs them on it). It queues single messages and keeps the session for one connection
 * only inside an explicit transaction, not between an extended-protocol Parse and its Sync, so concurrent `pg` queries
 * lose their portals ("portal \"\" does not exist"), run on another client's Parse (a wrong answer) or never get one;
 * and a NOTIFY reaches the client that sent it, not the one that ran LISTEN, so a parked BullMQ worker waits out its
 * 5 s poll for every job (5,008 ms on average over 20 jobs, against 9-25 ms here). In `npm start` under bench scenario
 * 4's load, 25-44% of the answers were 401 or 500 and the worker uploaded 1-7 logs where this server's uploaded 561-616.
 */
export class PGliteServer {
  private readonly connections = new Set<Connection>();
  private owner: Connection | undefined;
  private readonly waiters: Array<{ conn: Connection; grant: () => void }> = [];

  private constructor(
    private readonly db: PGlite,
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {}

  static async start(db: PGlite, options: PGliteServerOptions = {}): Promise<PGliteServer> {
    await db.waitReady;
    const server = createServer();
    server.maxConnections = options.maxConnections ?? 32;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const address = server.address() as AddressInfo;
    const instance = new PGliteServer(db, server, address.address, address.port);
    server.on('connection', (socket) => instance.accept(socket));
    return instance;
  }

  /** Stops accepting, drops every client (rolling back an open transaction) and resolves once all is closed. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const conn of this.connections) conn.socket.destroy();
    await Promise.all([closed, ...[...this.connections].map((c) => c.finished)]);
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const conn: Connection = {
      socket,
      started: false,
      ready: false,
      closed: false,
      input: Buffer.alloc(0),
      unit: [],
      chain: Promise.resolve(),
      finished,
    };
    this.connections.add(conn);
    socket.on('data', (data) => this.receive(conn, data));
    // A client vanishing is routine; the 'close' that follows does the cleanup.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      conn.closed = true;
      conn.chain = conn.chain
        .then(() => this.abandon(conn))
        .finally(() => {
          this.connections.delete(conn);
          finish();
        });
    });
  }

  private receive(conn: Connection, data: Buffer): void {
    conn.input = conn.input.length ? Buffer.concat([conn.input, data]) : data;
    for (;;) {
      // The first message has no type byte: int32 length, int32 code, body.
      const offset = conn.started ? 1 : 0;
      if (conn.input.length < offset + 4) return;
      const size = offset + conn.input.readInt32BE(offset);
      if (size < offset + 4) return void conn.socket.destroy();
      if (conn.input.length < size) return;
      const message = conn.input.subarray(0, size);
      conn.input = conn.input.subarray(size);
      if (conn.started) {
        conn.unit.push(message);
        if (UNIT_ENDS.has(message[0]!)) this.enqueue(conn);
        continue;
      }
      const code = message.length >= 8 ? message.readInt32BE(4) : 0;
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) conn.socket.write('N');
      else if (code === CANCEL_REQUEST)
        return void conn.socket.destroy(); // queries cannot be interrupted here
      else {
        conn.started = true;
        conn.unit.push(message);
        this.enqueue(conn);
      }
    }
  }

  private enqueue(conn: Connection): void {
    const unit = conn.unit;
    conn.unit = [];
    conn.chain = conn.chain
      .then(() => this.run(conn, unit))
      .catch((err: Error) => {
        // PGlite failed mid-unit: drop the client; abandon() resets the session after the 'close'.
        conn.closed = true;
        conn.socket.destroy(err);
      });
  }

  private async run(conn: Connection, unit: Buffer[]): Promise<void> {
    if (conn.closed && this.owner !== conn) return;
    await this.acquire(conn);
    // Closed while waiting: keep the session; abandon(), chained after this unit, resets and releases it.
    if (conn.closed) return;
    const chunks: Buffer[] = [];
    await this.db.runExclusive(async () => {
      for (const message of unit) {
        await this.db.execProtocolRawStream(message, { onRawData: (data) => void chunks.push(Buffer.from(data)) });
      }
    });
    const output = Buffer.concat(chunks);
    conn.socket.write(output);
    conn.ready = true;
    const { notifications, last } = scan(output);
    // The single session puts a NOTIFY's message in the output of whoever ran it, while the LISTENer may be any other
    // connection. Every client gets it, sent while we hold the session so it never lands inside another client's
    // response. Trade-off: clients that did not LISTEN get it too; `pg` raises a 'notification' event nobody handles.
    if (notifications.length) {
      const bytes = Buffer.concat(notifications);
      for (const other of this.connections) {
        if (other !== conn && other.ready && !other.closed) other.socket.write(bytes);
      }
    }
    if (unit.at(-1)![0] === TERMINATE) {
      conn.closed = true;
      conn.socket.end(() => conn.socket.destroy());
    } else if (last === READY_FOR_QUERY && !this.db.isInTransaction()) {
      this.release();
    }
  }

  /** Runs after a connection closed: undoes what it left half done, as PostgreSQL does when a client vanishes. */
  private async abandon(conn: Connection): Promise<void> {
    if (this.owner !== conn) return;
    try {
      await this.db.runExclusive(async () => {
        const discard = { onRawData: () => undefined };
        // ROLLBACK first, so that the Sync ending a half-sent sequence cannot commit its implicit transaction; a
        // backend waiting for Sync after an error ignores it, hence the second ROLLBACK for a failed explicit one.
        await this.db.execProtocolRawStream(ROLLBACK, discard);
        await this.db.execProtocolRawStream(SYNC, discard);
        if (this.db.isInTransaction()) await this.db.execProtocolRawStream(ROLLBACK, discard);
      });
    } finally {
      this.release();
    }
  }

  private acquire(conn: Connection): Promise<void> {
    if (this.owner === conn) return Promise.resolve();
    if (!this.owner) {
      this.owner = conn;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiters.push({ conn, grant }));
  }

  private release(): void {
    const next = this.waiters.shift();
    this.owner = next?.conn;
    next?.grant();
  }
}

/** Splits backend output into messages: returns the NotificationResponses and the type of the last message. */
function scan(output: Buffer): { notifications: Buffer[]; last: number | undefined } {
  const notifications: Buffer[] = [];
  let last: number | undefined;
  for (let at = 0; at + 5 <= output.length;) {
    const end = at + 1 + output.readInt32BE(at + 1);
    last = output[at];
    if (last === NOTIFICATION) notifications.push(output.subarray(at, end));
    at = end;
  }
  return { notifications, last };
}
