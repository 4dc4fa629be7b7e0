import { Body, Controller, HttpCode, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { CancelBatchDto, CancelPlanDto, ExchangeCallService, ExchangeErrorFilter, exchangeId } from '#libs/exchange-api';
import { validateBody } from '#libs/http';
import type { CancelBatchOrdersRequest, CancelBatchOrdersResult, CancelPlanResult } from '#libs/weex-client';
import { EXAMPLES, EXCHANGE_ERRORS } from './exchange-examples.js';

/**
 * Batch cancel and plan-order cancel (spec operations 11 and 12). Sent once, never retried: a 504 means the outcome
 * is unknown. Per-order failures are in the 200 answer (`failInfos`, `result: false`), as the exchange reports them.
 */
@Controller('v1')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:cancel')
@UseFilters(ExchangeErrorFilter)
@ApiAgentController('Cancels')
@ApiErrors(...EXCHANGE_ERRORS)
export class CancelsController {
  constructor(private readonly exchange: ExchangeCallService) {}

  @Post('orders/cancel-batch')
  @ApiEndpoint('Cancel orders', 'Spec operation 11 (weight 5 / 10): a symbol and exactly one of ids or cids. Sent once; 504 means the outcome is unknown. Scope exchange:cancel.')
  @ApiJsonBody('CancelBatchDto', { symbol: 'BTCUSDT', ids: ['737185556881998184'] })
  @ApiAnswer(200, 'Per-order results; failures in failInfos', EXAMPLES.cancelBatch)
  @HttpCode(200)
  cancelBatch(@Body() body: unknown, @Req() req: AgentRequest): Promise<CancelBatchOrdersResult> {
    const { symbol, ids, cids } = validateBody(CancelBatchDto, body);
    const request: CancelBatchOrdersRequest = ids ? { symbol, ids: ids.map(exchangeId) } : { symbol, cids: cids! };
    return this.exchange.run(req.agent!.accountId, 'cancelBatchOrders', (client, o) => client.cancelBatchOrders(request, o));
  }

  @Post('plan-orders/cancel')
  @ApiEndpoint('Cancel a plan (conditional) order', 'Spec operation 12 (weight 2 / 3): symbol and orderId (the algoId). Sent once; 504 means the outcome is unknown. Scope exchange:cancel.')
  @ApiJsonBody('CancelPlanDto', { symbol: 'BTCUSDT', orderId: '737185556881997777' })
  @ApiAnswer(200, 'The result; a refusal has result false and err_code', EXAMPLES.cancelPlan)
  @HttpCode(200)
  cancelPlan(@Body() body: unknown, @Req() req: AgentRequest): Promise<CancelPlanResult> {
    const { symbol, orderId } = validateBody(CancelPlanDto, body);
    return this.exchange.run(req.agent!.accountId, 'cancelPlan', (client, o) => client.cancelPlan({ symbol, orderId: exchangeId(orderId) }, o));
  }
}
