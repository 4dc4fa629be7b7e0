import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type GatewayConfig } from '#libs/config';
import { DatabaseModule } from '#libs/database';
import { QueueModule } from '#libs/queue';
import type { Runtime } from './prepare-runtime.js';

/** What every process's modules stand on: the configuration, Prisma and BullMQ, on the prepared runtime. */
@Module({})
export class RuntimeModule {
  static forRoot(config: GatewayConfig, runtime: Runtime): DynamicModule {
    return {
      module: RuntimeModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot({ url: runtime.databaseUrl }), QueueModule.forRoot(runtime.queue)],
    };
  }
}
