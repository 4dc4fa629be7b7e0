import { Controller, Get, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { ExchangeService, OperationDto, specOperation } from '#libs/exchange-proxy';
import { NoQueryDto } from '#libs/http';
import type { IncomePage, Position, SymbolConfig } from '#libs/weex-client';
import { ExchangeApi } from '../controller-kinds.js';
import { EXAMPLES } from './exchange-examples.js';
import { IncomePageDto, PositionListDto, SymbolConfigListDto } from './exchange.responses.js';

// Each request's DTO: its rules are the operation's parameters in OPERATIONS (libs/weex-client).
class IncomeParams extends OperationDto('income') {}
class SymbolConfigParams extends OperationDto('symbolConfig') {}

/** The account's positions, income and symbol configuration (spec operations 2, 3 and 9). */
@Controller('v1')
@ExchangeApi('Account', 'exchange:read')
export class AccountController {
  constructor(private readonly exchange: ExchangeService) {}

  @Get('positions')
  @ApiEndpoint('All positions', `${specOperation('allPositions')}.`)
  @ApiAnswer(200, 'Every position', PositionListDto, EXAMPLES.positions)
  async listPositions(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<{ data: Position[] }> {
    return { data: await this.exchange.call(agent, 'allPositions', {}) };
  }

  /** The exchange's page as it comes: `{ hasNextPage, items }`. */
  @Get('income')
  @ApiEndpoint(
    'Income history',
    `${specOperation('income')}. limit 1-100, default 20; only endTime: from 30 days before it; only startTime: to now; both: at most 100 days. The next page: the same query with the answer's nextKey.`,
  )
  @ApiAnswer(200, 'The exchange page', IncomePageDto, EXAMPLES.income)
  listIncome(@Query() query: IncomeParams, @Agent() agent: AgentIdentity): Promise<IncomePage> {
    return this.exchange.call(agent, 'income', query);
  }

  @Get('symbol-config')
  @ApiEndpoint('Margin and leverage per symbol', `${specOperation('symbolConfig')}; every symbol when none is given.`)
  @ApiAnswer(200, 'One entry per symbol', SymbolConfigListDto, EXAMPLES.symbolConfig)
  async listSymbolConfig(@Query() query: SymbolConfigParams, @Agent() agent: AgentIdentity): Promise<{ data: SymbolConfig[] }> {
    return { data: await this.exchange.call(agent, 'symbolConfig', query) };
  }
}
