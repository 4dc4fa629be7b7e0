import { Module } from '@nestjs/common';
import { ModelCallDecisions } from './model-call-decisions.service.js';
import { ModelCallsRepository } from './model-calls.repository.js';

/** The record of model calls, for what reads it without the proxy: AI logs that name their calls. */
@Module({
  providers: [ModelCallsRepository, ModelCallDecisions],
  exports: [ModelCallsRepository, ModelCallDecisions],
})
export class ModelCallRecordsModule {}
