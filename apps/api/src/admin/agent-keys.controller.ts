import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AccountAdminService, AdminAuthGuard, type AgentKeyView, CreateAgentKeyDto } from '#libs/accounts';
import { validateBody } from '#libs/http';

/** Agent keys: created for one account with scopes, shown once, stored hashed, revocable. */
@Controller('admin/agents')
@UseGuards(AdminAuthGuard)
export class AgentKeysController {
  constructor(private readonly admin: AccountAdminService) {}

  /** 201 with `key`: the only time it is shown. */
  @Post()
  @HttpCode(201)
  create(@Body() body: unknown): Promise<AgentKeyView & { key: string }> {
    return this.admin.createAgentKey(validateBody(CreateAgentKeyDto, body));
  }

  @Get()
  async list(@Query('accountId') accountId?: string): Promise<{ data: AgentKeyView[] }> {
    return { data: await this.admin.listAgentKeys(accountId) };
  }

  @Delete(':id')
  revoke(@Param('id') id: string): Promise<AgentKeyView> {
    return this.admin.revokeAgentKey(id);
  }
}
