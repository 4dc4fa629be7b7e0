import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiJsonBody } from '#libs/api-docs';
import { ExchangeService, OperationDto, specOperation } from '#libs/exchange-proxy';
import type { CancelBatchOrdersResult, CancelPlanResult } from '#libs/weex-client';
import { ExchangeApi } from '../controller-kinds.js';
import { CANCEL_EXAMPLES, CancelBatchResultDto, CancelPlanResultDto } from './cancels.responses.js';

// Each request's DTO: its rules are the operation's parameters in OPERATIONS (libs/weex-client).
class CancelBatchOrdersParams extends OperationDto('cancelBatchOrders') {}
class CancelPlanParams extends OperationDto('cancelPlan') {}

/**
 * Batch cancel and plan-order cancel (spec operations 11 and 12). Sent once, never retried: a 504 means the outcome
 * is unknown. Per-order failures are in the 200 answer (`failInfos`, `result: false`), as the exchange reports them.
 */
@Controller('v1')
@ExchangeApi('Cancels', 'exchange:cancel')
export class CancelsController {
  constructor(private readonly exchange: ExchangeService) {}

  @Post('orders/cancel-batch')
  @ApiEndpoint('Cancel orders', `${specOperation('cancelBatchOrders')} Sent once; 504 means the outcome is unknown.`)
  @ApiJsonBody(CancelBatchOrdersParams, { symbol: 'BTCUSDT', ids: ['737185556881998184'] })
  @ApiAnswer(200, 'Per-order results; failures in failInfos', CancelBatchResultDto, CANCEL_EXAMPLES.cancelBatch)
  @HttpCode(200)
  cancelOrders(@Body() body: CancelBatchOrdersParams, @Agent() agent: AgentIdentity): Promise<CancelBatchOrdersResult> {
    return this.exchange.call(agent, 'cancelBatchOrders', body);
  }

  @Post('plan-orders/cancel')
  @ApiEndpoint('Cancel a plan (conditional) order', `${specOperation('cancelPlan')} orderId is the algoId. Sent once; 504 means the outcome is unknown.`)
  @ApiJsonBody(CancelPlanParams, { symbol: 'BTCUSDT', orderId: '737185556881997777' })
  @ApiAnswer(200, 'The result; a refusal has result false and err_code', CancelPlanResultDto, CANCEL_EXAMPLES.cancelPlan)
  @HttpCode(200)
  cancelPlanOrder(@Body() body: CancelPlanParams, @Agent() agent: AgentIdentity): Promise<CancelPlanResult> {
    return this.exchange.call(agent, 'cancelPlan', body);
  }
}
