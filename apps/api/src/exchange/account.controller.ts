import { Controller, Get, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { ExchangeService, OperationDto, specOperation } from '#libs/exchange-proxy';
import { NoQueryDto } from '#libs/http';
import type { IncomePage, Position, SymbolConfig } from '#libs/weex-client';
import { ExchangeApi } from '../controller-kinds.js';
import { ACCOUNT_EXAMPLES, IncomePageDto, PositionListDto, SymbolConfigListDto } from './account.responses.js';

// Each request's DTO: its rules are the operation's parameters in OPERATIONS (libs/weex-client).
class IncomeParams extends OperationDto('income') {}
class SymbolConfigParams extends OperationDto('symbolConfig') {}

/** The account's positions, income and symbol configuration (spec operations 2, 3 and 9). */
@Controller('v1')
@ExchangeApi('Account', 'exchange:read')
export class AccountController {
  constructor(private readonly exchange: ExchangeService) {}

  @Get('positions')
  @ApiEndpoint('All positions', specOperation('allPositions'))
  @ApiAnswer(200, 'Every position', PositionListDto, ACCOUNT_EXAMPLES.positions)
  async listPositions(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<{ data: Position[] }> {
    return { data: await this.exchange.call(agent, 'allPositions', {}) };
  }

  /** The exchange's page as it comes: `{ hasNextPage, items }`. */
  @Get('income')
  @ApiEndpoint('Income history', `${specOperation('income')} The next page: the same query with the answer's nextKey.`)
  @ApiAnswer(200, 'The exchange page', IncomePageDto, ACCOUNT_EXAMPLES.income)
  listIncome(@Query() query: IncomeParams, @Agent() agent: AgentIdentity): Promise<IncomePage> {
    return this.exchange.call(agent, 'income', query);
  }

  @Get('symbol-config')
  @ApiEndpoint('Margin and leverage per symbol', `${specOperation('symbolConfig')} Every symbol when none is given.`)
  @ApiAnswer(200, 'One entry per symbol', SymbolConfigListDto, ACCOUNT_EXAMPLES.symbolConfig)
  async listSymbolConfig(@Query() query: SymbolConfigParams, @Agent() agent: AgentIdentity): Promise<{ data: SymbolConfig[] }> {
    return { data: await this.exchange.call(agent, 'symbolConfig', query) };
  }
}
