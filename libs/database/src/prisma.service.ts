import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.js';

/**
 * The one Prisma client of a process. Only repositories use it. It disconnects in the last shutdown phase, after
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
