import { type DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '#libs/accounts';
import { AiLogModule } from '#libs/ai-log';
import type { GatewayConfig } from '#libs/config';
import { IdempotencyModule } from '#libs/idempotency';
import { type Runtime, RuntimeModule } from '#libs/runtime';
import { AccountRegistryController } from './admin/account-registry.controller.js';
import { AgentKeysController } from './admin/agent-keys.controller.js';
import { AiLogsController } from './ai-logs.controller.js';

/** The HTTP service agents and operators call. */
@Module({})
export class ApiModule {
  static forRoot(config: GatewayConfig, runtime: Runtime): DynamicModule {
    return {
      module: ApiModule,
      imports: [RuntimeModule.forRoot(config, runtime), AccountsModule, AiLogModule, IdempotencyModule],
      controllers: [AiLogsController, AccountRegistryController, AgentKeysController],
    };
  }
}
