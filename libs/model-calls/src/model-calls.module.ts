import { Module } from '@nestjs/common';
import { AccountsModule } from '#libs/accounts';
import { LlmBodyLimit } from './llm-body-limit.js';
import { LlmProxyService } from './llm-proxy.service.js';
import { LlmUpstreams } from './llm-upstreams.js';
import { ModelCallRecordsModule } from './model-call-records.module.js';
import { ModelCallsService } from './model-calls.service.js';
import { OtlpIngestService } from './otlp-ingest.service.js';

/** The model-call proxy (/llm/openai/v1/...), the record of every call, and its reading. The API imports it. */
@Module({
  imports: [AccountsModule, ModelCallRecordsModule],
  providers: [ModelCallsService, LlmUpstreams, LlmProxyService, LlmBodyLimit, OtlpIngestService],
  exports: [ModelCallsService, LlmProxyService, OtlpIngestService],
})
export class ModelCallsModule {}
