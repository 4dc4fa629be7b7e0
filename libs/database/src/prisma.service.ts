import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.js';

/**
 * The one Prisma client of a process. Only repositories (`*.repository.ts`, each in the lib that owns its tables:
 * docs/architecture.md, Data) use it; services, controllers and tasks call them. It disconnects in the last shutdown phase, after
 * workers have finished (and recorded) their in-flight jobs in onModuleDestroy.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  /** On `pool` (DatabasePool in the apps, whose owner ends it), or on a pool of its own for `url`. */
  constructor(pool: string | pg.Pool, poolSize = 10) {
    super({ adapter: new PrismaPg(typeof pool === 'string' ? { connectionString: pool, max: poolSize } : pool) });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
