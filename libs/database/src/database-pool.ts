import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import type { Prisma } from './generated/client.js';

export interface DatabasePoolOptions {
  max?: number;
  /**
   * For the pool of a process that answers requests (the API, on a PostgreSQL server): PostgreSQL's statement_timeout
   * on every connection (a statement running longer is stopped, SQLSTATE 57014), `rows` cancels the statement of a
   * request whose client went away, and no JIT: the API's reads are index lookups that take milliseconds, but their
   * estimated cost (subqueries times rows) passed jit_above_cost, and compiling took 400-600 ms of a 650 ms read
   * (coverage over a million logs).
   */
  requests?: { statementTimeoutMs: number };
  /** How many connections WindowReadPool holds (2 by default). */
  windowReadConnections?: number;
}

/**
 * The process's connections to PostgreSQL but ingest's (SqlPool): PrismaService runs on them, and the reads whose cost
 * grows with a window (coverage, the report) run through `rows`, which stops with their request. Prisma takes no
 * AbortSignal, and its queries cannot be tied to a request without AsyncLocalStorage (which made promise-heavy code 1.5
 * to 2 times slower in a Node 20 micro-benchmark, ingest included), so those reads are plain pg on a client of the pool.
 */
@Injectable()
export class DatabasePool extends pg.Pool implements OnApplicationShutdown {
  private readonly cancelOnAbort: boolean;

  constructor(
    private readonly url: string,
    { max = 10, requests }: Omit<DatabasePoolOptions, 'windowReadConnections'> = {},
  ) {
    super({ connectionString: requests ? withJitOff(url) : url, max, ...(requests ? { statement_timeout: requests.statementTimeoutMs } : {}) });
    this.cancelOnAbort = requests !== undefined;
    // An idle client that loses its connection must not crash the process; the next query gets a new one.
    this.on('error', () => {});
  }

  /**
   * The rows of `sql` (pg's types: int4 a number, int8 a string, timestamptz a Date). When `signal` aborts, the
   * statement is cancelled on the server (pg_cancel_backend from a connection of its own, so that a full pool cannot
   * hold the cancel up) and its connection closed, so that a late cancel can never reach another request's statement.
   */
  async rows<T>(sql: Prisma.Sql, signal?: AbortSignal): Promise<T[]> {
    signal?.throwIfAborted();
    const client = await this.connect();
    let cancelled: Promise<void> | undefined;
    // pg sets processID from the server's BackendKeyData; @types/pg does not declare it.
    const cancel = () => (cancelled ??= this.cancelBackend((client as pg.PoolClient & { processID: number }).processID));
    if (this.cancelOnAbort) signal?.addEventListener('abort', cancel, { once: true });
    try {
      signal?.throwIfAborted(); // it went away while this waited for a connection
      return (await client.query({ text: sql.text, values: sql.values })).rows as T[];
    } finally {
      signal?.removeEventListener('abort', cancel);
      await cancelled;
      client.release(cancelled !== undefined);
    }
  }

  private async cancelBackend(pid: number): Promise<void> {
    // Bounded: the statement's connection is held until the cancel is done with.
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // The statement then runs to its end, or to the statement timeout.
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}

/**
 * DATABASE_URL with `-c jit=off` added to its `options` (the user's own kept): set when the connection starts, since a
 * SET queued on connect ran beside the pool's first query on that client, which pg warns against.
 */
function withJitOff(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', [parsed.searchParams.get('options'), '-c jit=off'].filter(Boolean).join(' '));
  return parsed.toString();
}

/**
 * The few connections of the reads whose cost grows with a window (coverage, the judges' report, stats), apart from
 * DatabasePool: a burst of them waits for these, and never takes the connections that the API's other reads and its
 * readiness probe need (three slow coverage requests held the whole pool and made /health/ready answer 503).
 */
@Injectable()
export class WindowReadPool extends DatabasePool {}
