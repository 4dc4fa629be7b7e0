import { Body, Controller, Param, Put } from '@nestjs/common';
import { LlmUpstreamDto, LlmUpstreamService, type LlmUpstreamView } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { AdminApi } from '../controller-kinds.js';
import { LlmUpstreamAnswerDto } from './llm-upstream.responses.js';

/** Where an account's model calls (/llm/openai/v1/...) go: an OpenAI-compatible provider and the account's key there. */
@Controller('admin/accounts')
@AdminApi('Admin: accounts')
export class LlmUpstreamController {
  constructor(private readonly upstreams: LlmUpstreamService) {}

  @Put(':id/llm-upstream')
  @ApiEndpoint(
    "Set an account's model provider",
    'Any OpenAI-compatible API. The key is encrypted at rest (AES-256-GCM, SECRETS_KEY) and never returned; the next call uses both. The default account takes its provider from LLM_UPSTREAM_URL and LLM_UPSTREAM_KEY (409).',
  )
  @ApiJsonBody(LlmUpstreamDto, { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-proj-...' })
  @ApiAnswer(200, 'Stored', LlmUpstreamAnswerDto, { accountId: 'team-b', baseUrl: 'https://api.openai.com/v1', apiKey: 'stored' })
  @ApiErrors(400, 404, 409)
  setLlmUpstream(@Param('id') id: string, @Body() dto: LlmUpstreamDto): Promise<LlmUpstreamView> {
    return this.upstreams.set(id, dto);
  }
}
