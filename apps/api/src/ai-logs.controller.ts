import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards, UseInterceptors } from '@nestjs/common';
import { type Accepted, AiLogService, type AiLogView, type BatchItemResult, CreateAiLogDto, readBatch } from '#libs/ai-log';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { GatewayConfig } from '#libs/config';
import { validateBody } from '#libs/http';
import { IdempotencyInterceptor } from '#libs/idempotency';

@Controller('v1/ai-logs')
@UseGuards(AgentAuthGuard)
export class AiLogsController {
  constructor(
    private readonly logs: AiLogService,
    private readonly config: GatewayConfig,
  ) {}

  /** Validates and commits one AI log; 202 means it is in PostgreSQL and will be uploaded. */
  @Post()
  @RequireScope('logs:write')
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  create(@Body() body: unknown, @Req() req: AgentRequest): Promise<Accepted> {
    return this.logs.accept(validateBody(CreateAiLogDto, body), req.agent!);
  }

  /**
   * Up to 500 logs at once: 207 with a result per item, in order (its id, or its field errors). The valid ones are
   * committed together before the answer; one bad item does not reject the others.
   */
  @Post('batch')
  @RequireScope('logs:write')
  @HttpCode(207)
  @UseInterceptors(IdempotencyInterceptor)
  async createBatch(@Body() body: unknown, @Req() req: AgentRequest): Promise<{ results: BatchItemResult[] }> {
    const { valid, rejected } = readBatch(body);
    const accepted = valid.length > 0 ? await this.logs.acceptMany(valid.map((v) => v.dto), req.agent!) : [];
    const results: BatchItemResult[] = [...rejected, ...accepted.map((a, i) => ({ index: valid[i].index, ...a }))];
    return { results: results.sort((a, b) => a.index - b.index) };
  }

  @Get(':id')
  get(@Param('id') id: string, @Req() req: AgentRequest): Promise<AiLogView> {
    return this.logs.get(id, req.agent!.accountId, this.config.sandbox ? 'simulator' : 'exchange');
  }
}
