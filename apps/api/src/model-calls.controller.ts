import { Controller, Get, Param, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import { NoQueryDto } from '#libs/http';
import { ListModelCallsQueryDto, type ModelCallSummary, type ModelCallView, ModelCallsService, NO_SPAN } from '#libs/model-calls';
import { AgentApi, Scopes } from './controller-kinds.js';
import { ModelCallDto, ModelCallPageDto } from './model-calls.responses.js';

const SUMMARY = {
  id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
  accountId: 'default',
  agentKeyId: '6b1e2f0c-3d4a-4b5c-8d7e-9f0a1b2c3d4e',
  source: 'proxy',
  method: 'POST',
  path: '/chat/completions',
  upstreamUrl: 'https://api.openai.com/v1',
  ...NO_SPAN,
  requestedModel: 'gpt-4o-mini',
  answeredModel: 'gpt-4o-mini-2024-07-18',
  responseId: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
  httpStatus: 200,
  outcome: 'answered',
  error: null,
  usage: { promptTokens: 41, completionTokens: 12, totalTokens: 53 },
  startedAt: '2026-11-22T10:00:00.000Z',
  firstByteAt: '2026-11-22T10:00:00.412Z',
  finishedAt: '2026-11-22T10:00:00.733Z',
  requestSha256: '9a0364b9e99bb480dd25e1f0284c8555a3d4b1b7c1a6e3f4d9c8b7a6e5f4d3c2',
  responseSha256: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
  chain: {
    seq: '42',
    prevHash: '3c9d0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928',
    hash: '9f2c0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928',
  },
};
const REQUEST = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"BTCUSDT 1h candles ..."}]}';
const ANSWER =
  '{"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion","model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":"BUY 0.01"},"finish_reason":"stop"}],"usage":{"prompt_tokens":41,"completion_tokens":12,"total_tokens":53}}';

/**
 * The model calls an account's agents made through /llm/openai/v1 (README: "Log with no code"), as recorded before
 * each answer ended, and those their OpenTelemetry exporters sent to /otlp/v1/traces: read by the agent that made
 * them and by keys that read the account's logs.
 */
@Controller('v1/model-calls')
@AgentApi('Model calls')
export class ModelCallsController {
  constructor(private readonly calls: ModelCallsService) {}

  @Get()
  @ApiEndpoint(
    "The account's model calls, newest first",
    'Calls through /llm/openai/v1 (`source` proxy) and spans exported to /otlp/v1/traces (`source` otlp), without their bodies (GET /v1/model-calls/{id} has them). Pass `nextCursor` as `cursor` for the next page.',
  )
  @ApiAnswer(200, 'A page', ModelCallPageDto, { data: [SUMMARY], nextCursor: 'c2VxLjQx' })
  @ApiErrors(400)
  @Scopes(['logs:write', 'exchange:read', 'audit:read'])
  listModelCalls(@Query() query: ListModelCallsQueryDto, @Agent() agent: AgentIdentity): Promise<{ data: ModelCallSummary[]; nextCursor: string | null }> {
    return this.calls.list(agent.accountId, query);
  }

  @Get(':id')
  @ApiEndpoint(
    'One model call with the bytes sent and answered',
    'The SHA-256 of `requestBody` and of `responseBody` (as bytes: base64-decoded when responseEncoding is base64) are `requestSha256` and `responseSha256`; `chain.hash` covers those and every other field.',
  )
  @ApiAnswer(200, 'The call', ModelCallDto, { ...SUMMARY, requestBody: REQUEST, responseBody: ANSWER, responseEncoding: 'utf8' })
  @ApiErrors(404)
  @Scopes(['logs:write', 'exchange:read', 'audit:read'])
  getModelCall(@Param('id') id: string, @Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<ModelCallView> {
    return this.calls.get(agent.accountId, id);
  }
}
