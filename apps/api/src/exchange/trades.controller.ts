import { Controller, Get, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { ExchangeService, OperationDto, specOperation } from '#libs/exchange-proxy';
import type { Trade } from '#libs/weex-client';
import { ExchangeApi } from '../controller-kinds.js';
import { TRADE_EXAMPLES, TradeListDto } from './trades.responses.js';

// Each request's DTO: its rules are the operation's parameters in OPERATIONS (libs/weex-client).
class UserTradesParams extends OperationDto('userTrades') {}

/** Trade (fill) details (spec operation 8). */
@Controller('v1')
@ExchangeApi('Trades', 'exchange:read')
export class TradesController {
  constructor(private readonly exchange: ExchangeService) {}

  @Get('trades')
  @ApiEndpoint('Trade (fill) details', `${specOperation('userTrades')} orderId: only that order's fills.`)
  @ApiAnswer(200, 'Fills', TradeListDto, TRADE_EXAMPLES.trades)
  async listTrades(@Query() query: UserTradesParams, @Agent() agent: AgentIdentity): Promise<{ data: Trade[] }> {
    return { data: await this.exchange.call(agent, 'userTrades', query) };
  }
}
