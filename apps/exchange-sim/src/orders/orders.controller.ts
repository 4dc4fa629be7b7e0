import { Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { OPERATIONS } from '#libs/weex-client';
import { Verified } from '../auth/auth.decorators.js';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { WeexAuthGuard } from '../auth/weex-auth.guard.js';
import { RequestParams } from '../http/request-params.js';
import type { SimPlanOrder } from '../state/order-records.js';
import { OrderCancelService } from './order-cancel.service.js';
import type { CancelBatchResult, CancelPlanResult } from './order-views.js';
import { OrdersService } from './orders.service.js';

/** Spec operations 4-7 (v3 queries) and 11-12 (v2 cancellations). */
@Controller()
@UseGuards(WeexAuthGuard)
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly cancels: OrderCancelService,
  ) {}

  @Get(OPERATIONS.openOrders.path)
  openOrders(@Verified() req: VerifiedRequest, @Query() query: unknown): Record<string, unknown>[] {
    return this.orders.openOrders(req.account, RequestParams.fromQuery(query));
  }

  @Get(OPERATIONS.algoOrders.path)
  algoOrders(@Verified() req: VerifiedRequest, @Query() query: unknown): { orders: SimPlanOrder[]; hasMore: boolean } {
    return this.orders.algoOrders(req.account, RequestParams.fromQuery(query));
  }

  @Get(OPERATIONS.orderInfo.path)
  order(@Verified() req: VerifiedRequest, @Query() query: unknown): Record<string, unknown> {
    return this.orders.order(req.account, RequestParams.fromQuery(query));
  }

  @Get(OPERATIONS.orderHistory.path)
  history(@Verified() req: VerifiedRequest, @Query() query: unknown): Record<string, unknown>[] {
    return this.orders.history(req.account, RequestParams.fromQuery(query));
  }

  @Post(OPERATIONS.cancelBatchOrders.path)
  @HttpCode(200)
  cancelBatch(@Verified() req: VerifiedRequest): CancelBatchResult {
    return this.cancels.cancelBatch(req.account, RequestParams.fromJsonBody(req.rawBody));
  }

  @Post(OPERATIONS.cancelPlan.path)
  @HttpCode(200)
  cancelPlan(@Verified() req: VerifiedRequest): CancelPlanResult {
    return this.cancels.cancelPlan(req.account, RequestParams.fromJsonBody(req.rawBody));
  }
}
