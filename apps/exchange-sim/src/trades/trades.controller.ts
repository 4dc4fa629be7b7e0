import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { OPERATIONS } from '#libs/weex-client';
import { Verified } from '../auth/auth.decorators.js';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { WeexAuthGuard } from '../auth/weex-auth.guard.js';
import { RequestParams } from '../http/request-params.js';
import type { SimTrade } from '../state/order-records.js';
import { TradesService } from './trades.service.js';

/** Spec operation 8. */
@Controller()
@UseGuards(WeexAuthGuard)
export class TradesController {
  constructor(private readonly trades: TradesService) {}

  @Get(OPERATIONS.userTrades.path)
  userTrades(@Verified() req: VerifiedRequest, @Query() query: unknown): SimTrade[] {
    return this.trades.userTrades(req.account, RequestParams.fromQuery(query));
  }
}
