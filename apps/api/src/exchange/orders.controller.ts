import { Controller, Get, Param, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiQueryDto } from '#libs/api-docs';
import {
  AlgoOrdersQueryDto,
  ExchangeCallService,
  ExchangeErrorFilter,
  exchangeId,
  OpenOrdersQueryDto,
  OrderHistoryQueryDto,
  OrderPathDto,
} from '#libs/exchange-api';
import { expectNoQuery, validateBody, validateQuery } from '#libs/http';
import type { AlgoOrdersPage, Order } from '#libs/weex-client';
import { EXAMPLES, EXCHANGE_ERRORS } from './exchange-examples.js';

/**
 * Open, historical and single orders, and conditional-order history (spec operations 4-7). `orders/open` and
 * `orders/history` are static routes, which Fastify matches before `orders/:orderId`.
 */
@Controller('v1')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:read')
@UseFilters(ExchangeErrorFilter)
@ApiAgentController('Orders')
@ApiErrors(...EXCHANGE_ERRORS)
export class OrdersController {
  constructor(private readonly exchange: ExchangeCallService) {}

  @Get('orders/open')
  @ApiEndpoint('Open orders', 'Spec operation 4 (weight 2 / 3). limit 1-100, default 100; page from 0; orderId: only orders with a greater ID. Scope exchange:read.')
  @ApiQueryDto('OpenOrdersQueryDto')
  @ApiAnswer(200, 'Open orders, newest first', EXAMPLES.openOrders)
  async open(@Query() query: unknown, @Req() req: AgentRequest): Promise<{ data: Order[] }> {
    const { orderId, ...dto } = validateQuery(OpenOrdersQueryDto, query);
    const request = { ...dto, orderId: orderId === undefined ? undefined : exchangeId(orderId) };
    return { data: await this.exchange.run(req.agent!.accountId, 'openOrders', (client, o) => client.openOrders(request, o)) };
  }

  @Get('orders/history')
  @ApiEndpoint('Order history', 'Spec operation 7 (weight 10 / 10). limit 1-1000, default 500; startTime ≤ endTime, at most 90 days apart; page from 0. Scope exchange:read.')
  @ApiQueryDto('OrderHistoryQueryDto')
  @ApiAnswer(200, 'Final orders, newest first', EXAMPLES.orderHistory)
  async history(@Query() query: unknown, @Req() req: AgentRequest): Promise<{ data: Order[] }> {
    const dto = validateQuery(OrderHistoryQueryDto, query);
    return { data: await this.exchange.run(req.agent!.accountId, 'orderHistory', (client, o) => client.orderHistory({ ...dto }, o)) };
  }

  /** One order, as the exchange returns it. */
  @Get('orders/:orderId')
  @ApiEndpoint('One order', 'Spec operation 6 (weight 2 / 3). orderId: digits, 1 to 2^63-1. Scope exchange:read.')
  @ApiAnswer(200, 'The order', EXAMPLES.order)
  order(@Param('orderId') orderId: string, @Query() query: unknown, @Req() req: AgentRequest): Promise<Order> {
    expectNoQuery(query);
    const id = exchangeId(validateBody(OrderPathDto, { orderId }).orderId);
    return this.exchange.run(req.agent!.accountId, 'orderInfo', (client, o) => client.orderInfo({ orderId: id }, o));
  }

  /** The exchange's page as it comes: `{ orders, hasMore }`. */
  @Get('algo-orders')
  @ApiEndpoint('Conditional (plan) order history', 'Spec operation 5 (weight 5 / 10). limit 1-1000, default 500; endTime within 90 days of startTime. Scope exchange:read.')
  @ApiQueryDto('AlgoOrdersQueryDto')
  @ApiAnswer(200, 'The exchange page', EXAMPLES.algoOrders)
  algoOrders(@Query() query: unknown, @Req() req: AgentRequest): Promise<AlgoOrdersPage> {
    const dto = validateQuery(AlgoOrdersQueryDto, query);
    return this.exchange.run(req.agent!.accountId, 'algoOrders', (client, o) => client.algoOrders({ ...dto }, o));
  }
}
