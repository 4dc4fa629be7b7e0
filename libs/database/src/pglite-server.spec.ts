import { EventEmitter, once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Queue, Worker, createPostgresBackend, runMigrations } from 'bullmq';
import pg from 'pg';
import { PGliteServer } from './pglite-server.js';

/** A frontend message: type byte, int32 length (counting itself), body. */
const frame = (type: string, ...body: Buffer[]) => {
  const head = Buffer.alloc(5);
  head.write(type);
  head.writeInt32BE(4 + body.reduce((n, b) => n + b.length, 0), 1);
  return Buffer.concat([head, ...body]);
};
const text = (s: string) => Buffer.from(`${s}\0`);
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

interface Served {
  host: string;
  port: number;
  close(): Promise<void>;
}

// The server under test: PGliteServer, or with PGLITE_SERVER=pglite-socket the library it is not (see pglite-server.ts),
// so that an upgrade of `@electric-sql/pglite-socket` can be checked against the same cases.
const SERVER = process.env.PGLITE_SERVER === 'pglite-socket' ? 'PGLiteSocketServer' : 'PGliteServer';

async function serve(db: PGlite): Promise<Served> {
  if (SERVER === 'PGliteServer') return PGliteServer.start(db, { port: 0 });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return { host: host!, port: Number(port), close: () => server.stop() };
}

describe(SERVER, () => {
  let db: PGlite;
  let server: Served;
  let url: string;
  const pools: pg.Pool[] = [];
  const clients: pg.Client[] = [];
  const sockets: Socket[] = [];

  const pool = (max: number) => {
    const p = new pg.Pool({ connectionString: url, max });
    pools.push(p);
    return p;
  };
  const client = async () => {
    const c = new pg.Client({ connectionString: url });
    clients.push(c);
    // Destroyed sockets surface here; the tests check outcomes, not this event.
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };

  /** A hand-driven wire-protocol client, to send one extended-protocol sequence in two halves. */
  const rawClient = async () => {
    const socket = connect(server.port, server.host);
    sockets.push(socket);
    const arrived = new EventEmitter();
    let input = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      input = Buffer.concat([input, chunk]);
      arrived.emit('data');
    });
    /** Resolves with the backend messages up to and including the next one of `last` type. */
    const until = async (last: string) => {
      for (;;) {
        const messages: Array<{ type: string; body: Buffer }> = [];
        for (let at = 0; at + 5 <= input.length;) {
          const end = at + 1 + input.readInt32BE(at + 1);
          if (end > input.length) break;
          messages.push({ type: String.fromCharCode(input[at]!), body: input.subarray(at + 5, end) });
          at = end;
          if (messages.at(-1)!.type === last) {
            input = input.subarray(end);
            return messages;
          }
        }
        await once(arrived, 'data');
      }
    };
    await once(socket, 'connect');
    const startup = Buffer.concat([int32(196608), text('user'), text('postgres'), text('database'), text('postgres'), text('')]);
    socket.write(Buffer.concat([int32(startup.length + 4), startup]));
    await until('Z');
    return { socket, until };
  };

  beforeAll(async () => {
    db = new PGlite();
    server = await serve(db);
    url = `postgresql://postgres@${server.host}:${server.port}/postgres?sslmode=disable`;
    await db.exec('CREATE TABLE tx_rows (who text, n int)');
    // PGlite's initdb takes about a second alone and much longer on a loaded machine.
  }, 60_000);

  afterAll(async () => {
    sockets.forEach((s) => s.destroy());
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await Promise.all(pools.map((p) => p.end()));
    await server.close();
    await db.close();
  });

  it('keeps concurrent extended-protocol queries of different shapes apart', async () => {
    const p = pool(10);
    // A row limit (not in @types/pg) makes `pg` send Execute + Flush and keep the portal open across round trips.
    const paged = { text: 'SELECT g FROM generate_series(1, $1::int) g', values: [5], rows: 2 };
    const results: unknown[] = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        if (i % 4 === 0) return (await p.query('SELECT $1::int + $2::int AS v', [i, 1])).rows[0].v;
        if (i % 4 === 1) {
          const { rows } = await p.query('SELECT $1::text AS a, $2::text AS b, $3::text AS c', [`${i}`, 'x', 'y']);
          return Object.values(rows[0]).join();
        }
        if (i % 4 === 2) return (await p.query(paged)).rows.length;
        return p.query('SELECT $1::int AS v', ['not a number']).then(
          () => 'no error',
          (err: Error) => err.message,
        );
      }),
    );
    results.forEach((value, i) => {
      const expected = [i + 1, `${i},x,y`, 5, 'invalid input syntax for type integer: "not a number"'][i % 4];
      expect(value).toEqual(expected);
    });
  });

  it("keeps a client's Parse and its later Bind together, whatever other clients run in between", async () => {
    const raw = await rawClient();
    raw.socket.write(frame('P', text(''), text('SELECT $1::int + $2::int'), int16(0)));
    const other = await client();
    const { rows } = await other.query('SELECT $1::text || $2::text || $3::text AS v', ['a', 'b', 'c']);
    expect(rows).toEqual([{ v: 'abc' }]);

    const param = (v: string) => [int32(v.length), Buffer.from(v)];
    raw.socket.write(
      Buffer.concat([frame('B', text(''), text(''), int16(0), int16(2), ...param('2'), ...param('3'), int16(0)), frame('E', text(''), int32(0)), frame('S')]),
    );
    const reply = await raw.until('Z');
    expect(reply.map((m) => m.type).join('')).toBe('12DCZ');
    // DataRow: int16 column count, int32 value length, value.
    expect(
      reply
        .find((m) => m.type === 'D')!
        .body.subarray(6)
        .toString(),
    ).toBe('5');
  });

  it('runs two overlapping transactions one after the other, each keeping its own outcome', async () => {
    const [a, b] = await Promise.all([client(), client()]);
    const steps: string[] = [];
    const run = async (c: pg.Client, who: string, end: 'COMMIT' | 'ROLLBACK') => {
      await c.query('BEGIN');
      steps.push(who);
      for (let n = 0; n < 3; n++) {
        await c.query('INSERT INTO tx_rows VALUES ($1, $2)', [who, n]);
        steps.push(who);
      }
      const seen = (await c.query('SELECT who, count(*)::int AS n FROM tx_rows GROUP BY who ORDER BY who')).rows;
      await c.query(end);
      steps.push(who);
      return seen;
    };
    const [seenByA, seenByB] = await Promise.all([run(a, 'a', 'COMMIT'), run(b, 'b', 'ROLLBACK')]);
    // The session is shared, so the server must not let one transaction's statements run inside the other.
    expect(steps.join('')).toBe(steps[0] === 'a' ? 'aaaaabbbbb' : 'bbbbbaaaaa');
    expect(seenByA).toContainEqual({ who: 'a', n: 3 });
    expect(seenByA).not.toContainEqual(expect.objectContaining({ who: 'b' }));
    expect(seenByB).toContainEqual({ who: 'b', n: 3 });
    const { rows } = await a.query('SELECT who, count(*)::int AS n FROM tx_rows GROUP BY who');
    expect(rows).toEqual([{ who: 'a', n: 3 }]);
  });

  it('delivers a NOTIFY from one client to the client that ran LISTEN', async () => {
    const [listener, notifier] = await Promise.all([client(), client()]);
    await listener.query('LISTEN wake_up');
    const received = once(listener, 'notification') as Promise<[pg.Notification]>;
    await notifier.query("NOTIFY wake_up, 'hello'");
    const [message] = await received;
    expect(message).toMatchObject({ channel: 'wake_up', payload: 'hello' });
  });

  it('frees the session when a client disconnects mid-transaction', async () => {
    const dropped = await client();
    await dropped.query('BEGIN');
    await dropped.query("INSERT INTO tx_rows VALUES ('dropped', 0)");
    (dropped as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    // Half an extended-protocol sequence: executed, but the Sync that would commit its implicit transaction never comes.
    const flushed = await rawClient();
    flushed.socket.write(
      Buffer.concat([
        frame('P', text(''), text("INSERT INTO tx_rows VALUES ('flushed', 0)"), int16(0)),
        frame('B', text(''), text(''), int16(0), int16(0), int16(0)),
        frame('E', text(''), int32(0)),
        frame('H'),
      ]),
    );
    expect((await flushed.until('C')).map((m) => m.type).join('')).toBe('12C');
    flushed.socket.destroy();
    const terminated = await client();
    await terminated.query('BEGIN');
    await terminated.query("INSERT INTO tx_rows VALUES ('terminated', 0)");
    await terminated.end();

    const other = await client();
    const { rows } = await other.query("SELECT count(*)::int AS n FROM tx_rows WHERE who IN ('dropped', 'flushed', 'terminated')");
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('runs BullMQ on the PostgreSQL backend, woken by NOTIFY', async () => {
    const p = pool(10);
    const connections = new Set<pg.PoolClient>();
    p.on('connect', (c) => {
      connections.add(c);
      void c.query('SET search_path TO bullmq, public');
    });
    // Parked: the worker's wait listens on its LISTEN client and its "any job already there?" probes have returned, so
    // only a NOTIFY (or the 5 s poll) can wake it.
    const workerParked = async () => {
      const listening = () => [...connections].some((c) => c.listenerCount('notification') > 0);
      while (!listening() || p.idleCount < p.totalCount - 1) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    const migrator = await p.connect();
    await runMigrations(migrator);
    migrator.release();

    const name = 'pglite-server-spec';
    const queue = new Queue(name, { connection: p }, createPostgresBackend);
    const worker = new Worker(name, async (job) => job.data.n * 2, { connection: p }, createPostgresBackend);
    const workerErrors: Error[] = [];
    worker.on('error', (err) => workerErrors.push(err));
    try {
      const single = 20;
      let wakeMs = 0;
      for (let n = 0; n < single; n++) {
        await workerParked();
        const started = performance.now();
        const completed = once(worker, 'completed');
        await queue.add('double', { n });
        await completed;
        wakeMs += performance.now() - started;
      }

      const total = 200;
      let done = 0;
      let resolveAll!: () => void;
      const allDone = new Promise<void>((resolve) => (resolveAll = resolve));
      worker.on('completed', () => ++done === total && resolveAll());
      const burstStarted = performance.now();
      for (let n = 0; n < total; n++) await queue.add('double', { n });
      await allDone;
      const burstMs = performance.now() - burstStarted;

      console.log(
        `${SERVER} + BullMQ: a job added to a parked worker completes in ${(wakeMs / single).toFixed(1)} ms on average ` +
          `(${single} jobs); ${total} jobs added one by one, all completed in ${burstMs.toFixed(0)} ms`,
      );
      expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: single + total, failed: 0 });
      expect(workerErrors).toEqual([]);
    } finally {
      await worker.close();
      await queue.close();
    }
  }, 120_000);
});
