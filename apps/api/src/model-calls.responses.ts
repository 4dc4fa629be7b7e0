import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiInstant } from '#libs/api-docs';
import type { ModelCallChainView, ModelCallSource, ModelCallSummary, ModelCallView, TokenUsage } from '#libs/model-calls';

/** The answers of /v1/model-calls, as OpenAPI schemas. */

const TOKENS = { type: 'integer', nullable: true } as const;
const TEXT = { type: 'string', nullable: true } as const;
const SHA256 = { description: 'SHA-256 hex', example: '5f1d0c3b8e2a4f6d9c7b1a0e3d5f7b9c2e4a6c8e0f1b3d5a7c9e1f3b5d7a9c1e' };

export class TokenUsageDto implements TokenUsage {
  @ApiProperty({ ...TOKENS, description: 'prompt_tokens (chat) or input_tokens (Responses API), as the provider reported them; null when it did not' })
  promptTokens: number | null;

  @ApiProperty({ ...TOKENS, description: 'completion_tokens or output_tokens' })
  completionTokens: number | null;

  @ApiProperty({ ...TOKENS, description: 'total_tokens, or their sum' })
  totalTokens: number | null;
}

export class ModelCallChainDto implements ModelCallChainView {
  @ApiId({ description: "the call's place in its account's chain of model calls", example: '42' })
  seq: string;

  @ApiProperty(SHA256)
  prevHash: string;

  @ApiProperty({ ...SHA256, description: "SHA-256 hex of prevHash followed by the canonical JSON of the call's fields (bodies by their SHA-256)" })
  hash: string;
}

export class ModelCallSummaryDto implements ModelCallSummary {
  @ApiProperty({ format: 'uuid', description: 'UUIDv7' })
  id: string;

  @ApiProperty()
  accountId: string;

  @ApiProperty({ description: 'the agent key the call came with' })
  agentKeyId: string;

  @ApiProperty({ enum: ['proxy', 'otlp'], description: '`proxy`: a call through /llm/openai/v1; `otlp`: a span exported to /otlp/v1/traces' })
  source: ModelCallSource;

  @ApiProperty({ ...TEXT, description: "the proxy's request method; null for a span", example: 'POST' })
  method: string | null;

  @ApiProperty({ ...TEXT, description: 'below /llm/openai/v1, with the query; null for a span', example: '/chat/completions' })
  path: string | null;

  @ApiProperty({ ...TEXT, description: "the provider's base URL the call went to; null for a span" })
  upstreamUrl: string | null;

  @ApiProperty({
    ...TEXT,
    description: "a span's W3C trace id (32 lowercase hex digits); null for the proxy's calls",
    example: '5b8efff798038103d269b633813fc60c',
  })
  traceId: string | null;

  @ApiProperty({
    ...TEXT,
    description: "a span's id (16 lowercase hex digits): with traceId, what makes an exporter's retry a duplicate",
    example: 'eee19b7ec3c1b174',
  })
  spanId: string | null;

  @ApiProperty({ ...TEXT, description: "the span's parent, when it has one" })
  parentSpanId: string | null;

  @ApiProperty({ ...TEXT, description: "the span's name", example: 'chat gpt-4o-mini' })
  spanName: string | null;

  @ApiProperty({ ...TEXT, description: "service.name of the span's resource" })
  serviceName: string | null;

  @ApiProperty({ ...TEXT, description: 'gen_ai.provider.name (or gen_ai.system, llm.provider, llm.system)', example: 'openai' })
  provider: string | null;

  @ApiProperty({ ...TEXT, description: 'gen_ai.operation.name (or llm.request.type)', example: 'chat' })
  operation: string | null;

  @ApiProperty({
    ...TEXT,
    description: "the span's weex.order_id, as decimal digits: the order an AI log of this call would name",
    example: '737185556881998184',
  })
  weexOrderId: string | null;

  @ApiProperty({ ...TEXT, description: "the span's weex.stage" })
  weexStage: string | null;

  @ApiProperty({ ...TEXT, description: "the span's weex.explanation" })
  weexExplanation: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: "`model` of the request's JSON" })
  requestedModel: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: '`model` of the answer: the one that answered' })
  answeredModel: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: "the provider's id of the answer (chatcmpl-…, resp_…)" })
  responseId: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "the provider's HTTP status; null when it sent none" })
  httpStatus: number | null;

  @ApiProperty({
    enum: ['answered', 'cancelled', 'failed'],
    description:
      '`answered`: the whole answer was passed on; `cancelled`: the agent went away first; `failed`: the provider could not be reached, was too slow or broke off',
  })
  outcome: string;

  @ApiProperty({ type: 'string', nullable: true, description: "why a failed call failed (the gateway's words)" })
  error: string | null;

  @ApiProperty({ type: TokenUsageDto })
  usage: TokenUsageDto;

  @ApiInstant({ description: 'when the gateway received the request' })
  startedAt: string;

  @ApiInstant({ nullable: true, description: "when the first byte of the answer's body came (time to first token, for a stream)" })
  firstByteAt: string | null;

  @ApiInstant({ description: 'when the answer had come whole (or the call stopped)' })
  finishedAt: string;

  @ApiProperty({ ...SHA256, description: 'SHA-256 hex of the request body as the agent sent it (and the provider got it)' })
  requestSha256: string;

  @ApiProperty({ ...SHA256, description: "SHA-256 hex of the answer body as the agent got it (the provider's bytes passed on, and a stream's error event)" })
  responseSha256: string;

  @ApiProperty({ type: ModelCallChainDto })
  chain: ModelCallChainDto;
}

export class ModelCallDto extends ModelCallSummaryDto implements ModelCallView {
  @ApiProperty({ description: 'the request body as sent: JSON text; for a span, its input messages (gen_ai.input.messages, or what stands for them)' })
  requestBody: string;

  @ApiProperty({
    description:
      'the answer body as the agent got it: JSON text, or for a stream its server-sent events as text; base64 when responseEncoding says so; for a span, its output messages',
  })
  responseBody: string;

  @ApiProperty({ enum: ['utf8', 'base64'], description: '`base64` for an answer that was not UTF-8 text' })
  responseEncoding: string;
}

export class ModelCallPageDto {
  @ApiProperty({ type: [ModelCallSummaryDto], description: 'newest first' }) data: ModelCallSummaryDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'pass as `cursor` for the next page; null on the last' }) nextCursor: string | null;
}
