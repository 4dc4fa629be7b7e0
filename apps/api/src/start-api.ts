import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AdminTokenService, type AgentAccess, AgentAccessService } from '#libs/accounts';
import { logLevelsFrom } from '#libs/common';
import type { GatewayConfig } from '#libs/config';
import { configureHttpApp, createHttpAdapter, HttpExceptionFilter } from '#libs/http';
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
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config, runtime), createHttpAdapter(), {
    bodyParser: false,
    logger: logLevelsFrom(config.logLevel),
  });
  configureHttpApp(app);
  app.useGlobalFilters(new HttpExceptionFilter());
  await app.init();
  const access = { ...(await app.get(AgentAccessService).ensureDefaultAccess()), sandboxAdminToken: app.get(AdminTokenService).sandboxToken() };
  await app.listen(config.port, config.host);
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1'), access };
}
