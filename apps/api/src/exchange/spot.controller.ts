import { Controller, Get, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiQueryDto } from '#libs/api-docs';
import { ExchangeCallService, ExchangeErrorFilter, SpotBillsQueryDto } from '#libs/exchange-api';
import { validateQuery } from '#libs/http';
import type { SpotBill } from '#libs/weex-client';
import { EXAMPLES, EXCHANGE_ERRORS } from './exchange-examples.js';

/** Spot account bills (spec operation 10, on the spot host). */
@Controller('v1/spot')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:read')
@UseFilters(ExchangeErrorFilter)
@ApiAgentController('Spot')
@ApiErrors(...EXCHANGE_ERRORS)
export class SpotController {
  constructor(private readonly exchange: ExchangeCallService) {}

  @Get('bills')
  @ApiEndpoint('Spot account bills', 'Spec operation 10, on the spot host (weight 5 / 5). limit 1-100, default 10; after/before in Unix ms. Scope exchange:read.')
  @ApiQueryDto('SpotBillsQueryDto')
  @ApiAnswer(200, 'Bills', EXAMPLES.spotBills)
  async bills(@Query() query: unknown, @Req() req: AgentRequest): Promise<{ data: SpotBill[] }> {
    const dto = validateQuery(SpotBillsQueryDto, query);
    return { data: await this.exchange.run(req.agent!.accountId, 'spotBills', (client, o) => client.spotBills({ ...dto }, o)) };
  }
}
