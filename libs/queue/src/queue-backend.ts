import { createPostgresBackend, runMigrations, setDefaultBackendFactory } from 'bullmq';
import pg from 'pg';
import { WatchedRedis } from '#libs/redis';

export type QueueBackendKind = 'redis' | 'postgres';

export interface QueueBackend {
  kind: QueueBackendKind;
  /** What BullMQ's `connection` option takes for this backend. */
  connection: WatchedRedis | pg.Pool;
  prefix: string;
  /** Whether the datastore is connected and answering now; while it is not, producers leave work to the outbox relay. */
  ready(): boolean;
  close(): Promise<void>;
}

/**
 * Opens the queue's datastore before any module starts: Redis through ioredis when a URL is given (the production
 * layout), otherwise BullMQ's PostgreSQL backend on the service's own database, with its schema migrated.
 */
export async function prepareQueueBackend(options: {
  redisUrl?: string;
  /** Redis only: how long the producers (and a Worker's job commands) wait for an answer. */
  commandTimeoutMs: number;
  databaseUrl: string;
  prefix: string;
}): Promise<QueueBackend> {
  if (options.redisUrl) {
    // Shared by every Queue and a Worker's job commands. A Worker duplicates it for its blocking wait for jobs (up to
    // 10 s): a plain ioredis connection, which BullMQ's watchdog resets a second past its block.
    const redis = new WatchedRedis(options.redisUrl, 'queue', options.commandTimeoutMs, { maxRetriesPerRequest: null, lazyConnect: true });
    await redis.connect();
    return {
      kind: 'redis',
      connection: redis,
      prefix: options.prefix,
      ready: () => redis.available,
      close: async () => void redis.disconnect(),
    };
  }
  // BullMQ does not set search_path on a pool it did not create. A server takes it as a startup parameter of every
  // connection; PGlite ignores those (and BullMQ's `schema` option), but all its connections share one session, so the
  // SET below holds for all of them. (A SET on each new connection raced the pool's first query on it: pg warns.)
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, options: '-c search_path=bullmq,public' });
  const client = await pool.connect();
  try {
    await client.query('SET search_path TO bullmq, public');
    await runMigrations(client);
  } finally {
    client.release();
  }
  // @nestjs/bullmq builds Queue and Worker without a backend argument, so the backend is chosen process-wide.
  setDefaultBackendFactory(createPostgresBackend);
  // On PostgreSQL the queue is the database itself: if it is down, so is ingest.
  return { kind: 'postgres', connection: pool, prefix: options.prefix, ready: () => true, close: () => pool.end() };
}
