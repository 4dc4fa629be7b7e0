import { Controller, Get, Query, Req, UseFilters, UseGuards } from '@nestjs/common';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiQueryDto } from '#libs/api-docs';
import { ExchangeCallService, ExchangeErrorFilter, IncomeQueryDto, SymbolConfigQueryDto } from '#libs/exchange-api';
import { expectNoQuery, validateQuery } from '#libs/http';
import type { IncomePage, Position, SymbolConfig } from '#libs/weex-client';
import { EXAMPLES, EXCHANGE_ERRORS } from './exchange-examples.js';

/** The account's positions, income and symbol configuration (spec operations 2, 3 and 9). */
@Controller('v1')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:read')
@UseFilters(ExchangeErrorFilter)
@ApiAgentController('Account')
@ApiErrors(...EXCHANGE_ERRORS)
export class AccountController {
  constructor(private readonly exchange: ExchangeCallService) {}

  @Get('positions')
  @ApiEndpoint('All positions', 'Spec operation 2 (allPosition; weight 10 IP / 15 UID). Scope exchange:read.')
  @ApiAnswer(200, 'Every position', EXAMPLES.positions)
  async positions(@Query() query: unknown, @Req() req: AgentRequest): Promise<{ data: Position[] }> {
    expectNoQuery(query);
    return { data: await this.exchange.run(req.agent!.accountId, 'allPositions', (client, o) => client.allPositions(o)) };
  }

  /** The exchange's page as it comes: `{ hasNextPage, items }`. */
  @Get('income')
  @ApiEndpoint('Income history', 'Spec operation 3 (weight 2 / 5). limit 1-100, default 20; only endTime: from 30 days before it; only startTime: to now; both: at most 100 days. Scope exchange:read.')
  @ApiQueryDto('IncomeQueryDto')
  @ApiAnswer(200, 'The exchange page', EXAMPLES.income)
  income(@Query() query: unknown, @Req() req: AgentRequest): Promise<IncomePage> {
    const dto = validateQuery(IncomeQueryDto, query);
    return this.exchange.run(req.agent!.accountId, 'income', (client, o) => client.income({ ...dto }, o));
  }

  @Get('symbol-config')
  @ApiEndpoint('Margin and leverage per symbol', 'Spec operation 9 (weight 5 / 10); every symbol when none is given. Scope exchange:read.')
  @ApiQueryDto('SymbolConfigQueryDto')
  @ApiAnswer(200, 'One entry per symbol', EXAMPLES.symbolConfig)
  async symbolConfig(@Query() query: unknown, @Req() req: AgentRequest): Promise<{ data: SymbolConfig[] }> {
    const { symbol } = validateQuery(SymbolConfigQueryDto, query);
    return { data: await this.exchange.run(req.agent!.accountId, 'symbolConfig', (client, o) => client.symbolConfig({ symbol }, o)) };
  }
}
