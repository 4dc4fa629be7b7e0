import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type GatewayConfig } from '#libs/config';
import { DatabaseModule, type DatabasePoolOptions } from '#libs/database';
import { QueueModule } from '#libs/queue';
import type { Runtime } from './prepare-runtime.js';

/**
 * What every process's modules stand on: the configuration, Prisma and BullMQ, on the prepared runtime. `pool` tunes
 * the connections of a process that answers requests (DatabasePoolOptions) on a PostgreSQL server; embedded PGlite
 * runs one statement at a time for every connection (a cancel would wait behind the statement it stops), and keeps
 * its defaults.
 */
@Module({})
export class RuntimeModule {
  static forRoot(config: GatewayConfig, runtime: Runtime, pool: DatabasePoolOptions = {}): DynamicModule {
    return {
      module: RuntimeModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ url: runtime.databaseUrl, pool: config.embeddedDatabase ? {} : pool }),
        QueueModule.forRoot(runtime.queue),
      ],
    };
  }
}
