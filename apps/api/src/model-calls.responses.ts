import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiInstant } from '#libs/api-docs';
import type { ModelCallChainView, ModelCallSummary, ModelCallView, TokenUsage } from '#libs/model-calls';

/** The answers of /v1/model-calls, as OpenAPI schemas. */

const TOKENS = { type: 'integer', nullable: true } as const;
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

  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({ description: 'below /llm/openai/v1, with the query', example: '/chat/completions' })
  path: string;

  @ApiProperty({ description: "the provider's base URL the call went to" })
  upstreamUrl: string;

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

  @ApiProperty({ ...SHA256, description: 'SHA-256 hex of the answer body as the provider sent it (and the agent got it)' })
  responseSha256: string;

  @ApiProperty({ type: ModelCallChainDto })
  chain: ModelCallChainDto;
}

export class ModelCallDto extends ModelCallSummaryDto implements ModelCallView {
  @ApiProperty({ description: 'the request body as sent: JSON text' })
  requestBody: string;

  @ApiProperty({ description: 'the answer body: JSON text, or for a stream its server-sent events as text; base64 when responseEncoding says so' })
  responseBody: string;

  @ApiProperty({ enum: ['utf8', 'base64'], description: '`base64` for an answer that was not UTF-8 text' })
  responseEncoding: string;
}

export class ModelCallPageDto {
  @ApiProperty({ type: [ModelCallSummaryDto], description: 'newest first' }) data: ModelCallSummaryDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'pass as `cursor` for the next page; null on the last' }) nextCursor: string | null;
}
