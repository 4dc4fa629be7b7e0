import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { logLevelsFrom } from '#libs/common';
import type { GatewayConfig } from '#libs/config';
import type { Runtime } from '#libs/runtime';
import { WorkerModule } from './worker.module.js';

/** Starts the upload worker as an application context: it consumes the queue and listens on no port. */
export async function startWorker(config: GatewayConfig, runtime: Runtime): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, runtime), {
    logger: logLevelsFrom(config.logLevel),
  });
  await app.init();
  return app;
}
