import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Agent, type AgentIdentity, type AgentKeyView, CreateJudgeKeyDto, JudgeKeysService } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { NoQueryDto } from '#libs/http';
import { AgentKeyDto, AgentKeyListDto, CreatedAgentKeyDto } from './admin/admin.responses.js';
import { AgentApi } from './controller-kinds.js';

const JUDGE_KEY = {
  id: '7d3e0c2a-5b1f-4e8a-9c6d-2f0a1b3c4d5e',
  accountId: 'team-b',
  label: 'judging panel, round 2',
  scopes: ['audit:read'],
  rateLimitPerMin: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  revokedAt: null,
  expiresAt: '2026-11-29T10:00:00.000Z',
};

/**
 * Judge keys: the team (a key with logs:write) gives the people who judge it a read-only key (scope audit:read) to its
 * decisions, coverage and proofs, which expires by itself and can be revoked sooner.
 */
@Controller('v1/judge-keys')
@AgentApi('Judge keys', 'logs:write')
export class JudgeKeysController {
  constructor(private readonly judgeKeys: JudgeKeysService) {}

  @Post()
  @HttpCode(201)
  @ApiEndpoint('Issue a judge key', 'A read-only key (audit:read) to this account, ending after expiresInDays (at most 90). The key is in this answer only.')
  @ApiJsonBody(CreateJudgeKeyDto, { label: 'judging panel, round 2', expiresInDays: 7 })
  @ApiAnswer(201, 'Issued; hand the key over now', CreatedAgentKeyDto, { ...JUDGE_KEY, key: 'agk_3q2Vd…' })
  @ApiErrors(400)
  createJudgeKey(@Body() dto: CreateJudgeKeyDto, @Agent() agent: AgentIdentity): Promise<AgentKeyView & { key: string }> {
    return this.judgeKeys.create(agent.accountId, dto);
  }

  @Get()
  @ApiEndpoint("The account's judge keys, without the keys")
  @ApiAnswer(200, 'Judge keys', AgentKeyListDto, { data: [JUDGE_KEY] })
  async listJudgeKeys(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<{ data: AgentKeyView[] }> {
    return { data: await this.judgeKeys.list(agent.accountId) };
  }

  @Delete(':id')
  @ApiEndpoint('Revoke a judge key', 'Takes effect at its next request; its console sessions end with it.')
  @ApiAnswer(200, 'Revoked', AgentKeyDto, { ...JUDGE_KEY, revokedAt: '2026-11-23T10:00:00.000Z' })
  @ApiErrors(404)
  revokeJudgeKey(@Param('id') id: string, @Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<AgentKeyView> {
    return this.judgeKeys.revoke(agent.accountId, id);
  }
}
