import { Controller, Get, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ListTraceDecisionsQueryDto, type TraceDecisionView, TraceDecisions } from '#libs/ai-log';
import { ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import { AgentApi, Scopes } from './controller-kinds.js';
import { TraceDecisionListDto } from './trace-decisions.responses.js';

const EXAMPLE: TraceDecisionView = {
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId: 'eee19b7ec3c1b174',
  orderId: '737185556881998184',
  stage: 'decision',
  explanation: null,
  receivedAt: '2026-11-22T10:00:00.733Z',
  status: 'logged',
  aiLogId: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
  error: null,
};

/** The spans with weex.order_id an account's exporters sent (docs/model-calls.md), and what became of each. */
@Controller('v1/trace-decisions')
@AgentApi('Model calls')
export class TraceDecisionsController {
  constructor(private readonly decisions: TraceDecisions) {}

  @Get()
  @ApiEndpoint(
    "The account's decision spans and the AI log each became",
    'Spans exported to /otlp/v1/traces with `weex.order_id`, newest first, a page at a time: `logged` with the AI log they made, `refused` with the reason (a refused value is shown cut to 1,000 characters), or `waiting` for their trace.',
  )
  @ApiAnswer(200, 'A page of decisions', TraceDecisionListDto, { data: [EXAMPLE], nextCursor: null })
  @ApiErrors(400)
  @Scopes(['logs:write', 'exchange:read', 'audit:read'])
  listTraceDecisions(
    @Query() query: ListTraceDecisionsQueryDto,
    @Agent() agent: AgentIdentity,
  ): Promise<{ data: TraceDecisionView[]; nextCursor: string | null }> {
    return this.decisions.list(agent.accountId, query);
  }
}
