import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type GatewayConfig, secretValues } from '#libs/config';
import { createLogger, PinoNestLogger } from '#libs/logging';
import type { Runtime } from '#libs/runtime';
import { WorkerModule } from './worker.module.js';

/** Starts the upload worker as an application context: it consumes the queue and listens on no port. */
export async function startWorker(config: GatewayConfig, runtime: Runtime): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, runtime), {
    logger: new PinoNestLogger(
      createLogger({
        level: config.logLevel,
        name: 'worker',
        secrets: secretValues(config),
      }),
    ),
  });
  await app.init();
  return app;
}
