import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.js';

/**
 * The one Prisma client of a process. Only repositories (`*.repository.ts`, each in the lib that owns its tables:
 * docs/architecture.md, Data) use it; services, controllers and tasks call them. It disconnects in the last shutdown phase, after
 * workers have finished (and recorded) their in-flight jobs in onModuleDestroy.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(url: string, poolSize = 10) {
    super({ adapter: new PrismaPg({ connectionString: url, max: poolSize }) });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
