import { Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { type Accepted, AiLogService, type AiLogView, type BatchItemResult, readAiLog, readBatch } from '#libs/ai-log';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { ApiBody, ApiHeader } from '@nestjs/swagger';
import { GatewayConfig } from '#libs/config';
import { takeBody } from '#libs/http';
import { type IdempotentReply, type IdempotentRequest, IdempotencyService } from '#libs/idempotency';

const LOG_EXAMPLE = {
  // A string here: as a JS number literal it would be rounded before it reached the document.
  orderId: '737185556881998184',
  stage: 'decision',
  model: 'my-model-v1',
  input: { prompt: 'BTCUSDT 1h candles ...' },
  output: { action: 'BUY', size: '0.01' },
  explanation: 'Momentum and funding both favour a long.',
};
const IDEMPOTENCY = ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Retry safely: the same key and body return the first answer (kept 24 h).' });

@Controller('v1/ai-logs')
@UseGuards(AgentAuthGuard)
@ApiAgentController('AI logs')
export class AiLogsController {
  constructor(
    private readonly logs: AiLogService,
    private readonly config: GatewayConfig,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Validates and commits one AI log; 202 means it is in PostgreSQL and will be uploaded. */
  @Post()
  @ApiEndpoint('Post one AI log', 'Validated, committed to PostgreSQL, then uploaded to WEEX by a worker. 202 means committed. Scope logs:write.')
  @ApiJsonBody('CreateAiLogDto', LOG_EXAMPLE)
  @ApiAnswer(202, 'Committed; the upload follows', { id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00', status: 'queued', receivedAt: '2026-11-22T10:00:00.000Z' })
  @ApiErrors(400, 401, 403, 409, 413, 422, 429)
  @IDEMPOTENCY
  @RequireScope('logs:write')
  @HttpCode(202)
  create(@Req() req: AgentRequest & IdempotentRequest, @Res({ passthrough: true }) reply: IdempotentReply): Promise<Accepted> {
    // The body is taken inside `run`, which hashes it first when the request carries an Idempotency-Key.
    return this.idempotency.run(req, reply, 202, () => this.logs.accept(readAiLog(takeBody(req)), req.agent!));
  }

  /**
   * Up to 500 logs at once: 207 with a result per item, in order (its id, or its field errors). The valid ones are
   * committed together before the answer; one bad item does not reject the others.
   */
  @Post('batch')
  @ApiEndpoint('Post up to 500 AI logs', 'One result per item, in order: its id, or its field errors. The valid ones are committed together. Scope logs:write.')
  @ApiBody({
    schema: { type: 'object', required: ['logs'], properties: { logs: { type: 'array', minItems: 1, maxItems: 500, items: { $ref: '#/components/schemas/CreateAiLogDto' } } } },
    examples: { example: { value: { logs: [LOG_EXAMPLE, { ...LOG_EXAMPLE, orderId: '12a' }] } } },
  })
  @ApiAnswer(207, 'A result per item', {
    results: [
      { index: 0, id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00', status: 'queued', receivedAt: '2026-11-22T10:00:00.000Z' },
      { index: 1, status: 'rejected', errors: [{ path: 'orderId', message: 'orderId as a string must contain only decimal digits' }] },
    ],
  })
  @ApiErrors(400, 401, 403, 409, 413, 422, 429)
  @IDEMPOTENCY
  @RequireScope('logs:write')
  @HttpCode(207)
  createBatch(@Req() req: AgentRequest & IdempotentRequest, @Res({ passthrough: true }) reply: IdempotentReply): Promise<{ results: BatchItemResult[] }> {
    return this.idempotency.run(req, reply, 207, async () => {
      const { valid, rejected } = readBatch(takeBody(req));
      const indexes = valid.map((v) => v.index);
      // splice: nothing here holds the parsed logs while the commit is awaited; acceptMany turns them into rows first.
      const accepted = indexes.length > 0 ? await this.logs.acceptMany(valid.splice(0).map((v) => v.dto), req.agent!) : [];
      const results: BatchItemResult[] = [...rejected, ...accepted.map((a, i) => ({ index: indexes[i], ...a }))];
      return { results: results.sort((a, b) => a.index - b.index) };
    });
  }

  @Get(':id')
  @ApiEndpoint("One log: its status, every upload attempt, and whether the simulator or the exchange answered")
  @ApiAnswer(200, 'The log', {
    id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
    status: 'uploaded',
    target: 'exchange',
    orderId: '737185556881998184',
    stage: 'decision',
    model: 'my-model-v1',
    input: LOG_EXAMPLE.input,
    output: LOG_EXAMPLE.output,
    explanation: LOG_EXAMPLE.explanation,
    receivedAt: '2026-11-22T10:00:00.000Z',
    uploadedAt: '2026-11-22T10:00:00.204Z',
    lastError: null,
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
  @ApiErrors(401, 404, 429)
  get(@Param('id') id: string, @Req() req: AgentRequest): Promise<AiLogView> {
    return this.logs.get(id, req.agent!.accountId, this.config.sandbox ? 'simulator' : 'exchange');
  }
}
