import { ApiProperty } from '@nestjs/swagger';
import type { LlmUpstreamView } from '#libs/accounts';

/** The answer of PUT /admin/accounts/:id/llm-upstream: never the key. */
export class LlmUpstreamAnswerDto implements LlmUpstreamView {
  @ApiProperty() accountId: string;
  @ApiProperty({ description: "the provider's base URL, as an OpenAI client's base_url" }) baseUrl: string;
  @ApiProperty({ enum: ['stored'], description: 'the key is stored encrypted and never returned' }) apiKey: 'stored';
}
