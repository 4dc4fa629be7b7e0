import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

@Module({ providers: [IdempotencyRepository, IdempotencyService], exports: [IdempotencyRepository, IdempotencyService] })
export class IdempotencyModule {}
