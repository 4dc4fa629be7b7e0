import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { QueueName } from './queue-names.js';

/**
 * Listens for every queue's 'error' events. BullMQ emits one when its connection drops; unheard, an 'error' event
 * throws and takes the process down, when all that happened is that Redis went away for a while.
 */
@Injectable()
export class QueueErrorLogger implements OnModuleInit {
  private readonly logger = new Logger('Queue');

  constructor(private readonly modules: ModuleRef) {}

  onModuleInit(): void {
    for (const name of Object.values(QueueName)) {
      const queue = this.modules.get<Queue>(getQueueToken(name), { strict: false });
      queue.on('error', (error) => this.logger.warn(`${name}: ${error.message}`));
    }
  }
}
