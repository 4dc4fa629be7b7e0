import { Controller, Get, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { ExchangeService, OperationDto, specOperation } from '#libs/exchange-proxy';
import type { SpotBill } from '#libs/weex-client';
import { ExchangeApi } from '../controller-kinds.js';
import { SPOT_EXAMPLES, SpotBillListDto } from './spot.responses.js';

// Each request's DTO: its rules are the operation's parameters in OPERATIONS (libs/weex-client).
class SpotBillsParams extends OperationDto('spotBills') {}

/** Spot account bills (spec operation 10, on the spot host). */
@Controller('v1/spot')
@ExchangeApi('Spot', 'exchange:read')
export class SpotController {
  constructor(private readonly exchange: ExchangeService) {}

  @Get('bills')
  @ApiEndpoint('Spot account bills', `${specOperation('spotBills')} On the spot host; after and before in Unix ms.`)
  @ApiAnswer(200, 'Bills', SpotBillListDto, SPOT_EXAMPLES.spotBills)
  async listSpotBills(@Query() query: SpotBillsParams, @Agent() agent: AgentIdentity): Promise<{ data: SpotBill[] }> {
    return { data: await this.exchange.call(agent, 'spotBills', query) };
  }
}
