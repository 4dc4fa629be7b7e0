import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { QueueBackend } from './queue-backend.js';
import { QueueErrorLogger } from './queue-error.logger.js';
import { QueueName } from './queue-names.js';

/** Injection token of the process's QueueBackend. */
export const QUEUE_BACKEND = Symbol('QUEUE_BACKEND');

/** BullMQ on the backend the process prepared at start, with every queue of the service registered. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(backend: QueueBackend): DynamicModule {
    const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));
    return {
      module: QueueModule,
      imports: [BullModule.forRoot({ connection: backend.connection as never, prefix: backend.prefix }), queues],
      providers: [{ provide: QUEUE_BACKEND, useValue: backend }, QueueErrorLogger],
      exports: [queues, QUEUE_BACKEND],
    };
  }
}
