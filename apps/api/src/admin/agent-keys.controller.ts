import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AccountAdminService, AdminAuthGuard, type AgentKeyView, CreateAgentKeyDto } from '#libs/accounts';
import { ApiAdminController, ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { validateBody } from '#libs/http';
import { ApiQuery } from '@nestjs/swagger';

const KEY = {
  id: '5b0c7a52-1f0e-4c55-8d55-0f6f0a2b7c11',
  accountId: 'team-b',
  label: 'momentum bot',
  scopes: ['logs:write', 'exchange:read'],
  rateLimitPerMin: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  revokedAt: null,
};

/** Agent keys: created for one account with scopes, shown once, stored hashed, revocable. */
@Controller('admin/agents')
@UseGuards(AdminAuthGuard)
@ApiAdminController('Admin: agent keys')
export class AgentKeysController {
  constructor(private readonly admin: AccountAdminService) {}

  /** 201 with `key`: the only time it is shown. */
  @Post()
  @ApiEndpoint('Create an agent key', 'The key is in this answer only; the database keeps its SHA-256. Scopes default to logs:write and exchange:read.')
  @ApiJsonBody('CreateAgentKeyDto', { accountId: 'team-b', label: 'momentum bot', scopes: ['logs:write', 'exchange:read'], rateLimitPerMin: 600 })
  @ApiAnswer(201, 'Created; store the key now', { ...KEY, rateLimitPerMin: 600, key: 'agk_3q2Vd…' })
  @ApiErrors(400, 401, 404)
  @HttpCode(201)
  create(@Body() body: unknown): Promise<AgentKeyView & { key: string }> {
    return this.admin.createAgentKey(validateBody(CreateAgentKeyDto, body));
  }

  @Get()
  @ApiEndpoint('Agent keys, without the keys')
  @ApiQuery({ name: 'accountId', required: false })
  @ApiAnswer(200, 'Keys', { data: [KEY] })
  @ApiErrors(401)
  async list(@Query('accountId') accountId?: string): Promise<{ data: AgentKeyView[] }> {
    return { data: await this.admin.listAgentKeys(accountId) };
  }

  @Delete(':id')
  @ApiEndpoint('Revoke an agent key', 'Takes effect at its next request.')
  @ApiAnswer(200, 'Revoked', { ...KEY, revokedAt: '2026-11-22T11:00:00.000Z' })
  @ApiErrors(401, 404)
  revoke(@Param('id') id: string): Promise<AgentKeyView> {
    return this.admin.revokeAgentKey(id);
  }
}
