import { Controller, Get, Param, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiError } from '#libs/api-docs';
import { ExchangeService, OperationDto, specOperation } from '#libs/exchange-proxy';
import { NoQueryDto } from '#libs/http';
import type { AlgoOrdersPage, Order } from '#libs/weex-client';
import { ExchangeApi } from '../controller-kinds.js';
import { AlgoOrdersPageDto, ORDER_EXAMPLES, OrderDto, OrderListDto } from './orders.responses.js';

// Each request's DTO: its rules are the operation's parameters in OPERATIONS (libs/weex-client).
class AlgoOrdersParams extends OperationDto('algoOrders') {}
class OpenOrdersParams extends OperationDto('openOrders') {}
class OrderHistoryParams extends OperationDto('orderHistory') {}
class OrderInfoParams extends OperationDto('orderInfo') {}

/**
 * Open, historical and single orders, and conditional-order history (spec operations 4-7). `orders/open` and
 * `orders/history` are static routes, which Fastify matches before `orders/:orderId`.
 */
@Controller('v1')
@ExchangeApi('Orders', 'exchange:read')
export class OrdersController {
  constructor(private readonly exchange: ExchangeService) {}

  @Get('orders/open')
  @ApiEndpoint('Open orders', `${specOperation('openOrders')} orderId: only orders with a greater ID.`)
  @ApiAnswer(200, 'Open orders, newest first', OrderListDto, ORDER_EXAMPLES.openOrders)
  async listOpenOrders(@Query() query: OpenOrdersParams, @Agent() agent: AgentIdentity): Promise<{ data: Order[] }> {
    return { data: await this.exchange.call(agent, 'openOrders', query) };
  }

  @Get('orders/history')
  @ApiEndpoint('Order history', specOperation('orderHistory'))
  @ApiAnswer(200, 'Final orders, newest first', OrderListDto, ORDER_EXAMPLES.orderHistory)
  async listOrderHistory(@Query() query: OrderHistoryParams, @Agent() agent: AgentIdentity): Promise<{ data: Order[] }> {
    return { data: await this.exchange.call(agent, 'orderHistory', query) };
  }

  /** One order, as the exchange returns it. */
  @Get('orders/:orderId')
  @ApiEndpoint('One order', `${specOperation('orderInfo')} Digits, 1 to 2^63-1; 404 ORDER_NOT_FOUND when the exchange knows no such order (WEEX -3200).`)
  @ApiAnswer(200, 'The order', OrderDto, ORDER_EXAMPLES.order)
  @ApiError(404, {
    description: 'The exchange knows no such order of this account (WEEX -3200 "Order does not exist.", as ccxt captured it)',
    code: 'ORDER_NOT_FOUND',
    message: 'the exchange knows no such order of this account (orderInfo): Order does not exist. (code -3200)',
  })
  getOrder(@Param() path: OrderInfoParams, @Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<Order> {
    return this.exchange.call(agent, 'orderInfo', path);
  }

  /** The exchange's page as it comes: `{ orders, hasMore }`. */
  @Get('algo-orders')
  @ApiEndpoint('Conditional (plan) order history', specOperation('algoOrders'))
  @ApiAnswer(200, 'The exchange page', AlgoOrdersPageDto, ORDER_EXAMPLES.algoOrders)
  listAlgoOrders(@Query() query: AlgoOrdersParams, @Agent() agent: AgentIdentity): Promise<AlgoOrdersPage> {
    return this.exchange.call(agent, 'algoOrders', query);
  }
}
