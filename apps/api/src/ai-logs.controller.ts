import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiExtraModels, ApiHeader, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { type Accepted, AiLogService, type AiLogView, type BatchItemResult, CreateAiLogDto, readAiLog, readBatch } from '#libs/ai-log';
import { Agent, type AgentIdentity, AgentQuota } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiError, ApiErrors, ApiTextAnswer } from '#libs/api-docs';
import { AuditProofs, PROOF_RETRY_AFTER_S } from '#libs/audit';
import { GatewayConfig } from '#libs/config';
import { type CheckedTextRequest, CHECKS_OWN_TEXT, NoQueryDto, takeBody } from '#libs/http';
import { type IdempotentReply, type IdempotentRequest, IdempotencyService, KEY_IN_USE_RETRY_AFTER_S } from '#libs/idempotency';
import { AccountLogsQueryDto, type AdminLogSummary, AdminLogsService } from '#libs/admin';
import { AcceptedDto, AiLogDto, BatchResultDto } from './ai-logs.responses.js';
import { AdminLogPageDto } from './admin/admin.responses.js';
import { AgentApi, Scopes } from './controller-kinds.js';

/** An ingest request: the Idempotency-Key, and whether the body may hold text PostgreSQL cannot store. */
type IngestRequest = IdempotentRequest & CheckedTextRequest;

const LOG_EXAMPLE = {
  // A string here: as a JS number literal it would be rounded before it reached the document.
  orderId: '737185556881998184',
  stage: 'decision',
  model: 'my-model-v1',
  input: { prompt: 'BTCUSDT 1h candles ...' },
  output: { action: 'BUY', size: '0.01' },
  explanation: 'Momentum and funding both favour a long.',
};
const PROOF_EXAMPLE = [
  'c2sp.org/tlog-proof@v1',
  'extra eyJhY2NvdW50SWQiOiJkZWZhdWx0Iiwi…base64 of the log as accepted…',
  'index 1841',
  'nB1ox0jSG6RkJ2iHmIfb0c6Rmdf5yq0MFx9lh8Xm9Ls=',
  '',
  'weex-ai-log-gateway.local/default',
  '1842',
  'qJ8mYl7sRkqH4tq0WfZbLxG2c9oD6jVnE1UQ3uQ5v1M=',
  'receipt-chain 1790 5be1…64 hex…',
  '',
  '— weex-ai-log-gateway.local Wg6cH2nXk…base64 signature…',
  '',
].join('\n');
const SUMMARY_EXAMPLE = {
  id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
  accountId: 'default',
  status: 'uploaded',
  orderId: LOG_EXAMPLE.orderId,
  stage: LOG_EXAMPLE.stage,
  model: LOG_EXAMPLE.model,
  explanation: LOG_EXAMPLE.explanation,
  attemptCount: 1,
  lastError: null,
  receivedAt: '2026-11-22T10:00:00.000Z',
  nextAttemptAt: '2026-11-22T10:00:00.000Z',
  uploadedAt: '2026-11-22T10:00:00.204Z',
};
const QUEUED = { index: 0, id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00', status: 'queued', receivedAt: '2026-11-22T10:00:00.000Z' };
const IDEMPOTENCY = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Retry safely: the same key and body return the first answer (kept 24 h) to every retry; 409 with Retry-After only while the first is still running in the same API process.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
});
const KEY_IN_USE = ApiError(409, {
  description: 'The first request with this Idempotency-Key is still running in this API process (once it committed, retries get its answer)',
  code: 'IDEMPOTENCY_KEY_IN_USE',
  message: 'a request with this Idempotency-Key is still in flight; retry later',
  headers: {
    'Retry-After': { description: 'Seconds to wait before retrying with the same key', schema: { type: 'integer', example: KEY_IN_USE_RETRY_AFTER_S } },
  },
});

/**
 * The ingest routes take the request itself, not a `@Body()` DTO, as the one exception to the API's validation pipe:
 * `takeBody` lets go of the parsed body while the commit is awaited, and `readAiLog` checks text PostgreSQL cannot
 * store only where the parser found some (docs/architecture.md, "Ingest").
 */
@Controller('v1/ai-logs')
@AgentApi('AI logs')
export class AiLogsController {
  constructor(
    private readonly logs: AiLogService,
    private readonly config: GatewayConfig,
    private readonly idempotency: IdempotencyService,
    private readonly quota: AgentQuota,
    private readonly proofs: AuditProofs,
    private readonly list: AdminLogsService,
  ) {}

  /** Validates and commits one AI log; 202 means it is in PostgreSQL and will be uploaded. */
  @Post()
  @ApiEndpoint('Post one AI log', 'Validated, committed to PostgreSQL, then uploaded to WEEX by a worker. 202 means committed.')
  @ApiBody({
    type: CreateAiLogDto,
    examples: {
      example: { summary: 'A decision', value: LOG_EXAMPLE },
      fromModelCalls: {
        summary: 'A decision filled from the model calls the gateway recorded',
        value: { orderId: LOG_EXAMPLE.orderId, stage: 'decision', modelCallIds: ['0195f0c2-6a10-7b2e-8c41-1d6e7f8a9b00'] },
      },
    },
  })
  @ApiAnswer(202, 'Committed; the upload follows', AcceptedDto, {
    id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
    status: 'queued',
    receivedAt: '2026-11-22T10:00:00.000Z',
  })
  @ApiErrors(400, 413, 422)
  @KEY_IN_USE
  @IDEMPOTENCY
  @Scopes(['logs:write'])
  @RouteConfig(CHECKS_OWN_TEXT)
  @HttpCode(202)
  createAiLog(@Req() req: IngestRequest, @Res({ passthrough: true }) reply: IdempotentReply, @Agent() agent: AgentIdentity): Promise<Accepted> {
    // The body is taken inside `run`, which hashes it first when the request carries an Idempotency-Key.
    return this.idempotency.run(req, reply, 202, (claim) =>
      this.logs.accept(readAiLog(takeBody(req), req.mayHoldUnstorableText), agent, claim && { claim, answer: ([accepted]) => accepted }),
    );
  }

  /**
   * Up to 500 logs at once: 207 with a result per item, in order (its id, or its field errors). The valid ones are
   * committed together before the answer; one bad item does not reject the others.
   */
  @Post('batch')
  @ApiEndpoint('Post up to 500 AI logs', 'One result per item, in order: its id, or its field errors. The valid ones are committed together.')
  @ApiExtraModels(CreateAiLogDto)
  @ApiBody({
    schema: {
      type: 'object',
      required: ['logs'],
      properties: { logs: { type: 'array', minItems: 1, maxItems: 500, items: { $ref: getSchemaPath(CreateAiLogDto) } } },
    },
    examples: { example: { summary: 'Two decisions', value: { logs: [LOG_EXAMPLE, { ...LOG_EXAMPLE, stage: 'execution' }] } } },
  })
  @ApiResponse({
    status: 207,
    description: 'A result per item, in order',
    type: BatchResultDto,
    examples: {
      committed: { summary: 'Both committed', value: { results: [QUEUED, { ...QUEUED, index: 1, id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f01' }] } },
      rejected: {
        summary: 'One rejected (say its orderId was "12a"); the other committed',
        value: {
          results: [
            QUEUED,
            { index: 1, status: 'rejected', errors: [{ path: 'logs.1.orderId', message: 'orderId as a string must contain only decimal digits' }] },
          ],
        },
      },
    },
  })
  @ApiErrors(400, 413, 422)
  @KEY_IN_USE
  @IDEMPOTENCY
  @Scopes(['logs:write'])
  @RouteConfig(CHECKS_OWN_TEXT)
  @HttpCode(207)
  createAiLogBatch(
    @Req() req: IngestRequest,
    @Res({ passthrough: true }) reply: IdempotentReply,
    @Agent() agent: AgentIdentity,
  ): Promise<{ results: BatchItemResult[] }> {
    return this.idempotency.run(req, reply, 207, async (claim) => {
      const { valid, rejected } = readBatch(takeBody(req), req.mayHoldUnstorableText);
      await this.quota.chargeBatch(agent, valid.length + rejected.length, reply);
      rejected.push(...(await this.logs.withModelCallsInBatch(valid, agent.accountId)));
      const indexes = valid.map((v) => v.index);
      const answer = (accepted: Accepted[]) => {
        const results: BatchItemResult[] = [...rejected, ...accepted.map((a, i) => ({ index: indexes[i], ...a }))];
        return { results: results.sort((a, b) => a.index - b.index) };
      };
      // splice: nothing here holds the parsed logs while the commit is awaited; acceptMany turns them into rows first.
      // A batch whose every log was rejected stores nothing, its key included.
      return answer(
        indexes.length > 0
          ? await this.logs.acceptMany(
              valid.splice(0).map((v) => v.dto),
              agent,
              claim && { claim, answer },
            )
          : [],
      );
    });
  }

  @Get()
  @ApiEndpoint(
    "The account's logs, newest first",
    'Filters combine: status (comma-separated), model, stage, orderId, q (a substring of the explanation, any case), `from` inclusive and `to` exclusive (ISO 8601 with a zone, or Unix ms). Pass `nextCursor` as `cursor` for the next page. What the console lists.',
  )
  @ApiAnswer(200, 'A page', AdminLogPageDto, { data: [SUMMARY_EXAMPLE], nextCursor: 'MTc5NTI4NzYwMDAwMC4wMTk1ZjBjMi03YzFhLTdkM2UtOWIxZi0yYTRjNmU4ZjBhMTI' })
  @ApiErrors(400)
  @Scopes(['logs:write', 'exchange:read', 'audit:read'])
  listAiLogs(@Query() query: AccountLogsQueryDto, @Agent() agent: AgentIdentity): Promise<{ data: AdminLogSummary[]; nextCursor: string | null }> {
    return this.list.listAccount(agent.accountId, query);
  }

  @Get(':id')
  @ApiEndpoint(
    'One log: its status, every upload attempt, and whether the simulator or the exchange answered',
    'The agent that posts logs follows them (logs:write); a key that reads the same logs through evidence and audit exports may too (exchange:read).',
  )
  @ApiAnswer(200, 'The log', AiLogDto, {
    id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
    status: 'uploaded',
    target: 'exchange',
    orderId: '737185556881998184',
    stage: 'decision',
    model: 'my-model-v1',
    input: LOG_EXAMPLE.input,
    output: LOG_EXAMPLE.output,
    explanation: LOG_EXAMPLE.explanation,
    modelCallIds: [],
    receivedAt: '2026-11-22T10:00:00.000Z',
    uploadedAt: '2026-11-22T10:00:00.204Z',
    lastError: null,
    chain: {
      seq: '1842',
      prevHash: '3c9d0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928',
      hash: '9f2c0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928',
    },
    attempts: [
      {
        at: '2026-11-22T10:00:00.120Z',
        finishedAt: '2026-11-22T10:00:00.204Z',
        latencyMs: 84,
        target: 'exchange',
        outcome: 'uploaded',
        httpStatus: 200,
        exchangeCode: '00000',
        exchangeMessage: 'success',
      },
    ],
  })
  @ApiErrors(404)
  @Scopes(['logs:write', 'exchange:read', 'audit:read'])
  getAiLog(@Param('id') id: string, @Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<AiLogView> {
    return this.logs.get(id, agent.accountId, this.config.sandbox ? 'simulator' : 'exchange');
  }

  @Get(':id/proof')
  @ApiEndpoint(
    'Proof that the log is in the signed tree: a c2sp.org/tlog-proof@v1 file',
    "The log's index (seq − 1), its inclusion proof (RFC 9162), and the latest signed checkpoint that covers it; the `extra` line is the log as accepted (its canonical JSON, base64), whose leaf hash the proof starts from. `npm run audit:verify -- --proof FILE --key VKEY` and the /verify page check it offline. 409 with Retry-After while no checkpoint covers the log yet (POST /v1/audit/checkpoints signs one now).",
  )
  @ApiTextAnswer('The proof file', { 'text/plain': PROOF_EXAMPLE })
  @ApiErrors(404)
  @ApiError(409, {
    description: 'No signed checkpoint covers the log yet',
    code: 'PROOF_NOT_READY',
    message: 'AI log … (seq 1843) is not covered by a signed checkpoint yet: …',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', example: PROOF_RETRY_AFTER_S } } },
  })
  @Scopes(['logs:write', 'exchange:read', 'audit:read'])
  async getAiLogProof(@Param('id') id: string, @Query() _query: NoQueryDto, @Agent() agent: AgentIdentity, @Res() reply: FastifyReply): Promise<void> {
    const proof = await this.proofs.inclusion(agent.accountId, id);
    void reply.type('text/plain; charset=utf-8').send(proof);
  }
}
