import { Logger } from '@nestjs/common';
import type { GatewayConfig } from '#libs/config';
import { prepareDatabase } from '#libs/database';
import { prepareQueueBackend, type QueueBackend } from '#libs/queue';
import { UnreachableError } from './startup-failure.js';

/** The infrastructure a process needs before its modules start, owned by the process and closed last. */
export interface Runtime {
  databaseUrl: string;
  queue: QueueBackend;
  close(): Promise<void>;
}

/** Database (server or embedded PGlite) migrated, and the queue backend (Redis, or BullMQ on PostgreSQL) open. */
export async function prepareRuntime(config: GatewayConfig): Promise<Runtime> {
  const logger = new Logger('Runtime');
  const database = await prepareDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    log: (message) => logger.log(message),
  }).catch((error: unknown) => {
    throw config.databaseUrl && isConnectionFailure(error) ? new UnreachableError('PostgreSQL (DATABASE_URL)', config.databaseUrl, error) : error;
  });
  try {
    const queue = await prepareQueueBackend({
      redisUrl: config.redisUrl,
      commandTimeoutMs: config.redisCommandTimeoutMs,
      databaseUrl: database.url,
      prefix: config.queuePrefix,
    });
    logger.log(
      `database: ${database.embedded ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}; queue: BullMQ on ${queue.kind === 'redis' ? 'Redis' : 'PostgreSQL'}`,
    );
    return {
      databaseUrl: database.url,
      queue,
      async close() {
        await queue.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw config.redisUrl && isConnectionFailure(error) ? new UnreachableError('Redis (REDIS_URL)', config.redisUrl, error) : error;
  }
}

/** A refused, reset, timed-out or unresolvable connection, as pg and ioredis report them. */
function isConnectionFailure(error: unknown): boolean {
  const errors = error instanceof AggregateError ? error.errors : [error];
  return errors.some(
    (e: NodeJS.ErrnoException) =>
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(e?.code ?? '') ||
      /Connection is closed|connect ETIMEDOUT|timed out/i.test(e?.message ?? ''),
  );
}
