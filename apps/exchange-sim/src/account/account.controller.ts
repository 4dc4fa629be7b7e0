import { Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { OPERATIONS } from '#libs/weex-client';
import { Verified } from '../auth/auth.decorators.js';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { WeexAuthGuard } from '../auth/weex-auth.guard.js';
import { RequestParams } from '../http/request-params.js';
import type { SimPosition, SimSymbolConfig } from '../state/account-records.js';
import { AccountService, type IncomePage } from './account.service.js';

/** Spec operations 2, 3 and 9. */
@Controller()
@UseGuards(WeexAuthGuard)
export class AccountController {
  constructor(private readonly accounts: AccountService) {}

  @Get(OPERATIONS.allPositions.path)
  positions(@Verified() req: VerifiedRequest): SimPosition[] {
    return this.accounts.positions(req.account);
  }

  @Post(OPERATIONS.income.path)
  @HttpCode(200)
  income(@Verified() req: VerifiedRequest): IncomePage {
    return this.accounts.income(req.account, RequestParams.fromJsonBody(req.rawBody));
  }

  @Get(OPERATIONS.symbolConfig.path)
  symbolConfigs(@Verified() req: VerifiedRequest, @Query() query: unknown): SimSymbolConfig[] {
    return this.accounts.symbolConfigs(req.account, RequestParams.fromQuery(query));
  }
}
