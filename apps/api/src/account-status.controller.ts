import { Controller, Get, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { type AccountStatus, AccountOperationsService } from '#libs/admin';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { NoQueryDto } from '#libs/http';
import { STATUS_EXAMPLE } from './admin/account-operations.controller.js';
import { AccountStatusDto } from './admin/admin.responses.js';
import { AgentApi } from './controller-kinds.js';

/** The team's own view of what admins see of its account: the console's health page, and any script's. */
@Controller('v1/status')
@AgentApi('Account status', 'logs:write', 'exchange:read')
export class AccountStatusController {
  constructor(private readonly accounts: AccountOperationsService) {}

  @Get()
  @ApiEndpoint(
    "The account's upload health",
    "Logs by status (the upload backlog), weight budget use, clock offset, the last failed upload attempts with the exchange's answers, pause state and evidence sync: what GET /admin/accounts/{id}/status answers, for the key's own account.",
  )
  @ApiAnswer(200, 'Status', AccountStatusDto, STATUS_EXAMPLE)
  getStatus(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<AccountStatus> {
    return this.accounts.status(agent.accountId);
  }
}
