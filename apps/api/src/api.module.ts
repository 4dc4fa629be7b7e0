import { type DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { AccountsModule } from '#libs/accounts';
import { AiLogModule } from '#libs/ai-log';
import { AuditModule } from '#libs/audit';
import { ConsoleModule } from '#libs/console';
import type { GatewayConfig } from '#libs/config';
import { EvidenceModule } from '#libs/evidence';
import { ExchangeProxyModule } from '#libs/exchange-proxy';
import { RequestValidationPipe } from '#libs/http';
import { IdempotencyModule } from '#libs/idempotency';
import { ModelCallsModule } from '#libs/model-calls';
import { AdminModule } from '#libs/admin';
import { type Runtime, RuntimeModule } from '#libs/runtime';
import { VerifyPageModule } from '#libs/verify-page';
import { AccountOperationsController } from './admin/account-operations.controller.js';
import { AccountRegistryController } from './admin/account-registry.controller.js';
import { AdminLogsController } from './admin/admin-logs.controller.js';
import { AgentKeysController } from './admin/agent-keys.controller.js';
import { LlmUpstreamController } from './admin/llm-upstream.controller.js';
import { QueueOverviewController } from './admin/queue-overview.controller.js';
import { AiLogsController } from './ai-logs.controller.js';
import { AccountStatusController } from './account-status.controller.js';
import { AuditController } from './audit.controller.js';
import { ConsoleSessionController } from './console-session.controller.js';
import { EvidenceController } from './evidence.controller.js';
import { AccountController } from './exchange/account.controller.js';
import { CancelsController } from './exchange/cancels.controller.js';
import { OrdersController } from './exchange/orders.controller.js';
import { SpotController } from './exchange/spot.controller.js';
import { TradesController } from './exchange/trades.controller.js';
import { HealthController } from './health.controller.js';
import { JudgeKeysController } from './judge-keys.controller.js';
import { LlmProxyController } from './llm-proxy.controller.js';
import { MetricsController } from './metrics.controller.js';
import { ModelCallsController } from './model-calls.controller.js';
import { TraceDecisionsController } from './trace-decisions.controller.js';
import { OtlpController } from './otlp/otlp.controller.js';
import { OtlpRoutes } from './otlp/otlp-routes.js';
import { OtlpStatusFilter } from './otlp/otlp-status.filter.js';

/** The HTTP service agents and operators call. */
@Module({})
export class ApiModule {
  static forRoot(config: GatewayConfig, runtime: Runtime): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        // Every statement of the API but ingest's commits (SqlPool) is bounded; window reads stop with their request.
        RuntimeModule.forRoot(config, runtime, {
          requests: { statementTimeoutMs: config.apiStatementTimeoutMs },
          windowReadConnections: config.apiWindowReadConnections,
        }),
        AccountsModule,
        AiLogModule,
        IdempotencyModule,
        ExchangeProxyModule,
        EvidenceModule,
        AdminModule,
        AuditModule,
        VerifyPageModule,
        ConsoleModule,
        ModelCallsModule,
      ],
      controllers: [
        AiLogsController,
        ModelCallsController,
        TraceDecisionsController,
        LlmProxyController,
        OtlpController,
        AuditController,
        JudgeKeysController,
        AccountStatusController,
        ConsoleSessionController,
        AccountController,
        OrdersController,
        TradesController,
        SpotController,
        CancelsController,
        AccountRegistryController,
        LlmUpstreamController,
        AgentKeysController,
        EvidenceController,
        QueueOverviewController,
        AdminLogsController,
        AccountOperationsController,
        HealthController,
        MetricsController,
      ],
      // Every @Body(), @Query() and @Param() typed with a DTO is validated (the ingest routes read their body by hand).
      providers: [{ provide: APP_PIPE, useClass: RequestValidationPipe }, OtlpRoutes, OtlpStatusFilter],
    };
  }
}
