import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { AccountAdminService, ConsoleAction, type AgentKeyView, CreateAgentKeyDto, ListAgentKeysQueryDto } from '#libs/accounts';
import { NoQueryDto } from '#libs/http';
import { ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { AdminApi } from '../controller-kinds.js';
import { AgentKeyDto, AgentKeyListDto, CreatedAgentKeyDto } from './admin.responses.js';

const KEY = {
  id: '5b0c7a52-1f0e-4c55-8d55-0f6f0a2b7c11',
  accountId: 'team-b',
  label: 'momentum bot',
  scopes: ['logs:write', 'exchange:read'],
  rateLimitPerMin: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  revokedAt: null,
  expiresAt: null,
};

/** Agent keys: created for one account with scopes, shown once, stored hashed, revocable. */
@Controller('admin/agents')
@AdminApi('Admin: agent keys')
export class AgentKeysController {
  constructor(private readonly admin: AccountAdminService) {}

  /** 201 with `key`: the only time it is shown. */
  @Post()
  @ApiEndpoint('Create an agent key', 'The key is in this answer only; the database keeps its SHA-256. Scopes default to logs:write and exchange:read.')
  @ApiJsonBody(CreateAgentKeyDto, { accountId: 'team-b', label: 'momentum bot', scopes: ['logs:write', 'exchange:read'], rateLimitPerMin: 600 })
  @ApiAnswer(201, 'Created; store the key now', CreatedAgentKeyDto, { ...KEY, rateLimitPerMin: 600, key: 'agk_3q2Vd…' })
  @ApiErrors(400, 404)
  @HttpCode(201)
  createAgentKey(@Body() dto: CreateAgentKeyDto): Promise<AgentKeyView & { key: string }> {
    return this.admin.createAgentKey(dto);
  }

  @Get()
  @ApiEndpoint('Agent keys, without the keys')
  @ApiAnswer(200, 'Keys', AgentKeyListDto, { data: [KEY] })
  @ApiErrors(400)
  async listAgentKeys(@Query() { accountId }: ListAgentKeysQueryDto): Promise<{ data: AgentKeyView[] }> {
    return { data: await this.admin.listAgentKeys(accountId) };
  }

  @ConsoleAction()
  @Delete(':id')
  @ApiEndpoint('Revoke an agent key', 'Takes effect at its next request.')
  @ApiAnswer(200, 'Revoked', AgentKeyDto, { ...KEY, revokedAt: '2026-11-22T11:00:00.000Z' })
  @ApiErrors(404)
  revokeAgentKey(@Param('id') id: string, @Query() _query: NoQueryDto): Promise<AgentKeyView> {
    return this.admin.revokeAgentKey(id);
  }
}
