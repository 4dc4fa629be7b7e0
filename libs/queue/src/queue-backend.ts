import { createPostgresBackend, runMigrations, setDefaultBackendFactory } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';

export type QueueBackendKind = 'redis' | 'postgres';

export interface QueueBackend {
  kind: QueueBackendKind;
  /** What BullMQ's `connection` option takes for this backend. */
  connection: Redis | pg.Pool;
  prefix: string;
  /** Whether the datastore is connected now; while it is not, producers leave work to the outbox relay. */
  ready(): boolean;
  close(): Promise<void>;
}

/**
 * Opens the queue's datastore before any module starts: Redis through ioredis when a URL is given (the production
 * layout), otherwise BullMQ's PostgreSQL backend on the service's own database, with its schema migrated.
 */
export async function prepareQueueBackend(options: {
  redisUrl?: string;
  databaseUrl: string;
  prefix: string;
}): Promise<QueueBackend> {
  if (options.redisUrl) {
    // BullMQ workers need maxRetriesPerRequest: null so that blocking commands survive reconnects.
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    await redis.connect();
    return {
      kind: 'redis',
      connection: redis,
      prefix: options.prefix,
      ready: () => redis.status === 'ready',
      close: async () => void redis.disconnect(),
    };
  }
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  // BullMQ does not set search_path on a pool it did not create; PGlite also ignores its `schema` option.
  pool.on('connect', (client) => void client.query('SET search_path TO bullmq, public'));
  const client = await pool.connect();
  try {
    await runMigrations(client);
  } finally {
    client.release();
  }
  // @nestjs/bullmq builds Queue and Worker without a backend argument, so the backend is chosen process-wide.
  setDefaultBackendFactory(createPostgresBackend);
  // On PostgreSQL the queue is the database itself: if it is down, so is ingest.
  return { kind: 'postgres', connection: pool, prefix: options.prefix, ready: () => true, close: () => pool.end() };
}
