import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { SimState } from '../state/sim-state.js';
import { type BudgetConfig, parseBudgetConfig } from './budget-config.js';
import { parseControlBody } from './config-checks.js';

/** Simulator-only, unauthenticated: weight budgets at run time. Every answer is the budgets in force. */
@Controller('__sim/budgets')
export class BudgetsController {
  constructor(private readonly state: SimState) {}

  @Get()
  show(): BudgetConfig {
    return this.state.budgets.config;
  }

  /** Replaces the budgets (missing fields take the defaults) and starts every window afresh. */
  @Put()
  replace(@Body() body: unknown): BudgetConfig {
    return this.state.budgets.set(parseBudgetConfig(parseControlBody(body)));
  }

  /** Back to the budgets the simulator started with. */
  @Delete()
  reset(): BudgetConfig {
    return this.state.budgets.reset();
  }
}
