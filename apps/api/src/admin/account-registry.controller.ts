import { Body, Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { AccountAdminService, AccountCredentialsDto, type AccountView, AdminAuthGuard, CreateAccountDto } from '#libs/accounts';
import { ApiAdminController, ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { validateBody } from '#libs/http';

const ACCOUNT = {
  id: 'team-b',
  name: 'Team B',
  createdAt: '2026-11-22T10:00:00.000Z',
  credentials: 'stored',
  baseUrl: null,
  spotBaseUrl: null,
  ipWeightLimit: null,
  uidWeightLimit: null,
  uploadsPausedAt: null,
};

/** WEEX accounts: add one with its credentials (stored encrypted), list them, rotate credentials. */
@Controller('admin/accounts')
@UseGuards(AdminAuthGuard)
@ApiAdminController('Admin: accounts')
export class AccountRegistryController {
  constructor(private readonly admin: AccountAdminService) {}

  @Post()
  @ApiEndpoint('Add a WEEX account', 'Its credentials are encrypted at rest (AES-256-GCM, SECRETS_KEY) and never returned.')
  @ApiJsonBody('CreateAccountDto', { id: 'team-b', name: 'Team B', apiKey: 'weex-api-key', secret: 'weex-secret', passphrase: 'weex-passphrase' })
  @ApiAnswer(201, 'Added', ACCOUNT)
  @ApiErrors(400, 401, 409)
  @HttpCode(201)
  create(@Body() body: unknown): Promise<AccountView> {
    return this.admin.createAccount(validateBody(CreateAccountDto, body));
  }

  @Get()
  @ApiEndpoint('Every account, without credentials')
  @ApiAnswer(200, 'Accounts', { data: [ACCOUNT] })
  @ApiErrors(401)
  async list(): Promise<{ data: AccountView[] }> {
    return { data: await this.admin.listAccounts() };
  }

  @Get(':id')
  @ApiEndpoint('One account, without credentials')
  @ApiAnswer(200, 'The account', ACCOUNT)
  @ApiErrors(401, 404)
  get(@Param('id') id: string): Promise<AccountView> {
    return this.admin.account(id);
  }

  @Put(':id/credentials')
  @ApiEndpoint("Rotate an account's credentials", 'Every process uses the new ones within 10 s (at once for an upload refused with the old ones).')
  @ApiJsonBody('AccountCredentialsDto', { apiKey: 'new-key', secret: 'new-secret', passphrase: 'new-passphrase' })
  @ApiAnswer(200, 'Rotated', ACCOUNT)
  @ApiErrors(400, 401, 404, 409)
  replaceCredentials(@Param('id') id: string, @Body() body: unknown): Promise<AccountView> {
    return this.admin.replaceCredentials(id, validateBody(AccountCredentialsDto, body));
  }
}
