import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';

/**
 * A small pg pool beside Prisma, for the one hot path where Prisma's per-statement overhead shows: the group-commit
 * transaction of ingest (measured: Prisma's runtime was a fifth of the API's CPU under load, docs/benchmarks.md), used by
 * its repositories (AiLogAppendRepository, and IdempotencyRepository within that transaction). Everything else goes
 * through PrismaService.
 */
@Injectable()
export class SqlPool extends pg.Pool implements OnApplicationShutdown {
  constructor(url: string, max = 4) {
    super({ connectionString: url, max });
    // An idle client that loses its connection must not crash the process; the next query gets a new one.
    this.on('error', () => {});
  }

  /** Runs `work` in one transaction on one client; rolls back if it throws. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end();
  }
}
