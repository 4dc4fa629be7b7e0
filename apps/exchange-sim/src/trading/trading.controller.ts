import { Controller, Delete, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { Verified } from '../auth/auth.decorators.js';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { WeexAuthGuard } from '../auth/weex-auth.guard.js';
import { RequestParams } from '../http/request-params.js';
import type { SimPosition } from '../state/account-records.js';
import type { SimOrder, SimPlanOrder } from '../state/order-records.js';
import { AccountStateService, type BalanceItem } from './account-state.service.js';
import { SANDBOX_OPERATIONS as OP } from './sandbox-operations.js';
import { TradingService } from './trading.service.js';

/**
 * The contract trading endpoints ccxt's weex uses (weex.js api.contractPrivate), beyond the spec's operations: place
 * and cancel orders and plan orders, and the account's balance, single position and fee rates.
 */
@Controller()
@UseGuards(WeexAuthGuard)
export class TradingController {
  constructor(
    private readonly trading: TradingService,
    private readonly accountState: AccountStateService,
  ) {}

  @Post(OP.placeOrder.path)
  @HttpCode(200)
  placeOrder(@Verified() req: VerifiedRequest): SimOrder {
    return this.trading.placeOrder(req.account, RequestParams.fromJsonBody(req.rawBody));
  }

  @Delete(OP.cancelOrder.path)
  cancelOrder(@Verified() req: VerifiedRequest, @Query() query: unknown): SimOrder {
    return this.trading.cancelOrder(req.account, RequestParams.fromQuery(query));
  }

  @Delete(OP.cancelBatch.path)
  cancelBatch(@Verified() req: VerifiedRequest): { orderList: Record<string, unknown>[] } {
    return this.trading.cancelBatch(req.account, RequestParams.fromJsonBody(req.rawBody));
  }

  @Delete(OP.cancelAll.path)
  cancelAll(@Verified() req: VerifiedRequest, @Query() query: unknown): SimOrder[] {
    return this.trading.cancelAll(req.account, RequestParams.fromQuery(query));
  }

  @Post(OP.placePlan.path)
  @HttpCode(200)
  placePlan(@Verified() req: VerifiedRequest): SimPlanOrder {
    return this.trading.placePlan(req.account, RequestParams.fromJsonBody(req.rawBody));
  }

  @Delete(OP.cancelPlan.path)
  cancelPlan(@Verified() req: VerifiedRequest, @Query() query: unknown): SimPlanOrder {
    return this.trading.cancelPlan(req.account, RequestParams.fromQuery(query));
  }

  @Delete(OP.cancelAllPlans.path)
  cancelAllPlans(@Verified() req: VerifiedRequest, @Query() query: unknown): SimPlanOrder[] {
    return this.trading.cancelAllPlans(req.account, RequestParams.fromQuery(query));
  }

  @Get(OP.openPlans.path)
  openPlans(@Verified() req: VerifiedRequest, @Query() query: unknown): SimPlanOrder[] {
    return this.trading.openPlans(req.account, RequestParams.fromQuery(query));
  }

  @Get(OP.balance.path)
  balance(@Verified() req: VerifiedRequest): BalanceItem[] {
    return this.accountState.balance(req.account);
  }

  @Get(OP.singlePosition.path)
  singlePosition(@Verified() req: VerifiedRequest, @Query() query: unknown): SimPosition[] {
    return this.accountState.positionsOf(req.account, RequestParams.fromQuery(query));
  }

  @Get(OP.commissionRate.path)
  commissionRate(@Query() query: unknown): Record<string, string> {
    return this.accountState.commissionRate(RequestParams.fromQuery(query));
  }
}
