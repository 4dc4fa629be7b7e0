import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { AccountAdminService, AccountCredentialsDto, type AccountView, CreateAccountDto } from '#libs/accounts';
import { NoQueryDto } from '#libs/http';
import { ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { AdminApi } from '../controller-kinds.js';
import { AccountDto, AccountListDto } from './admin.responses.js';

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
@AdminApi('Admin: accounts')
export class AccountRegistryController {
  constructor(private readonly admin: AccountAdminService) {}

  @Post()
  @ApiEndpoint('Add a WEEX account', 'Its credentials are encrypted at rest (AES-256-GCM, SECRETS_KEY) and never returned.')
  @ApiJsonBody(CreateAccountDto, { id: 'team-b', name: 'Team B', apiKey: 'weex-api-key', secret: 'weex-secret', passphrase: 'weex-passphrase' })
  @ApiAnswer(201, 'Added', AccountDto, ACCOUNT)
  @ApiErrors(400, 409)
  @HttpCode(201)
  createAccount(@Body() dto: CreateAccountDto): Promise<AccountView> {
    return this.admin.createAccount(dto);
  }

  @Get()
  @ApiEndpoint('Every account, without credentials')
  @ApiAnswer(200, 'Accounts', AccountListDto, { data: [ACCOUNT] })
  async listAccounts(@Query() _query: NoQueryDto): Promise<{ data: AccountView[] }> {
    return { data: await this.admin.listAccounts() };
  }

  @Get(':id')
  @ApiEndpoint('One account, without credentials')
  @ApiAnswer(200, 'The account', AccountDto, ACCOUNT)
  @ApiErrors(404)
  getAccount(@Param('id') id: string, @Query() _query: NoQueryDto): Promise<AccountView> {
    return this.admin.account(id);
  }

  @Put(':id/credentials')
  @ApiEndpoint("Rotate an account's credentials", 'Every process uses the new ones within 10 s (at once for an upload refused with the old ones).')
  @ApiJsonBody(AccountCredentialsDto, { apiKey: 'new-key', secret: 'new-secret', passphrase: 'new-passphrase' })
  @ApiAnswer(200, 'Rotated', AccountDto, ACCOUNT)
  @ApiErrors(400, 404, 409)
  replaceAccountCredentials(@Param('id') id: string, @Body() dto: AccountCredentialsDto): Promise<AccountView> {
    return this.admin.replaceCredentials(id, dto);
  }
}
