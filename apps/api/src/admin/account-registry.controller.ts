import { Body, Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { AccountAdminService, AccountCredentialsDto, type AccountView, AdminAuthGuard, CreateAccountDto } from '#libs/accounts';
import { validateBody } from '#libs/http';

/** WEEX accounts: add one with its credentials (stored encrypted), list them, rotate credentials. */
@Controller('admin/accounts')
@UseGuards(AdminAuthGuard)
export class AccountRegistryController {
  constructor(private readonly admin: AccountAdminService) {}

  @Post()
  @HttpCode(201)
  create(@Body() body: unknown): Promise<AccountView> {
    return this.admin.createAccount(validateBody(CreateAccountDto, body));
  }

  @Get()
  async list(): Promise<{ data: AccountView[] }> {
    return { data: await this.admin.listAccounts() };
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<AccountView> {
    return this.admin.account(id);
  }

  @Put(':id/credentials')
  replaceCredentials(@Param('id') id: string, @Body() body: unknown): Promise<AccountView> {
    return this.admin.replaceCredentials(id, validateBody(AccountCredentialsDto, body));
  }
}
