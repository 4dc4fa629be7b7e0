import { Controller, Get, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiQueryDto } from '#libs/api-docs';
import { ExchangeCallService, ExchangeErrorFilter, exchangeId, TradesQueryDto } from '#libs/exchange-api';
import { validateQuery } from '#libs/http';
import type { Trade } from '#libs/weex-client';
import { EXAMPLES, EXCHANGE_ERRORS } from './exchange-examples.js';

/** Trade (fill) details (spec operation 8). */
@Controller('v1')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:read')
@UseFilters(ExchangeErrorFilter)
@ApiAgentController('Trades')
@ApiErrors(...EXCHANGE_ERRORS)
export class TradesController {
  constructor(private readonly exchange: ExchangeCallService) {}

  @Get('trades')
  @ApiEndpoint('Trade (fill) details', 'Spec operation 8 (weight 5 / 5). limit 1-100, default 100; endTime ≥ startTime; orderId: only that order\'s fills. Scope exchange:read.')
  @ApiQueryDto('TradesQueryDto')
  @ApiAnswer(200, 'Fills', EXAMPLES.trades)
  async trades(@Query() query: unknown, @Req() req: AgentRequest): Promise<{ data: Trade[] }> {
    const { orderId, ...dto } = validateQuery(TradesQueryDto, query);
    const request = { ...dto, orderId: orderId === undefined ? undefined : exchangeId(orderId) };
    return { data: await this.exchange.run(req.agent!.accountId, 'userTrades', (client, o) => client.userTrades(request, o)) };
  }
}
