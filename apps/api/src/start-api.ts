import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import {
  AccountsRepository,
  AdminAuthGuard,
  AdminTokenService,
  type AgentAccess,
  AgentAccessService,
  refuseUnknownAgentsBeforeLargeBodies,
} from '#libs/accounts';
import { setupApiDocs } from '#libs/api-docs';
import { mountQueueDashboard } from '#libs/dashboard';
import { type GatewayConfig, secretValues } from '#libs/config';
import { configureHttpApp, createHttpAdapter, HttpExceptionFilter } from '#libs/http';
import { createLogger, PinoNestLogger } from '#libs/logging';
import { ProcessMetrics } from '#libs/admin';
import { QueueName } from '#libs/queue';
import type { Runtime } from '#libs/runtime';
import { ApiModule } from './api.module.js';

export interface RunningApi {
  app: NestFastifyApplication;
  url: string;
  access: AgentAccess & {
    /** The admin token made for this data directory in sandbox mode, to print; never ADMIN_TOKEN itself. */
    sandboxAdminToken?: string;
  };
}

/** Starts the HTTP API on config.host:config.port (0 picks a free port). */
export async function startApi(config: GatewayConfig, runtime: Runtime): Promise<RunningApi> {
  const logger = createLogger({ level: config.logLevel, name: 'api', secrets: secretValues(config) });
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot(config, runtime),
    await createHttpAdapter(undefined, logger, config.trustProxy),
    {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
    },
  );
  await configureHttpApp(app, config.bodyBytesInFlight);
  app.useGlobalFilters(new HttpExceptionFilter());
  app.get(ProcessMetrics).timeRequests(app.getHttpAdapter().getInstance());
  refuseUnknownAgentsBeforeLargeBodies(app.getHttpAdapter().getInstance(), app.get(AccountsRepository));
  const admin = app.get(AdminAuthGuard);
  const queues = [QueueName.AiLogUpload, QueueName.Periodic].map((name) => app.get<Queue>(getQueueToken(name)));
  await mountQueueDashboard(app.getHttpAdapter().getInstance(), queues, {
    token: () => app.get(AdminTokenService).token(),
    verify: (token, address, refusal) => admin.verify(token, address, refusal),
  });
  setupApiDocs(app);
  await app.init();
  const access = { ...(await app.get(AgentAccessService).ensureDefaultAccess()), sandboxAdminToken: app.get(AdminTokenService).sandboxToken() };
  await app.listen(config.port, config.host);
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1'), access };
}
