import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { parseControlBody } from '../limits/config-checks.js';
import { SimState } from '../state/sim-state.js';
import { type FaultConfig, parseFaultConfig } from './fault-config.js';

/** Simulator-only, unauthenticated: switches faults on and off at run time. Every answer is the config in force. */
@Controller('__sim/faults')
export class FaultsController {
  constructor(private readonly state: SimState) {}

  @Get()
  show(): FaultConfig {
    return this.state.faults.config;
  }

  @Put()
  replace(@Body() body: unknown): FaultConfig {
    return this.state.faults.set(parseFaultConfig(parseControlBody(body)));
  }

  @Delete()
  clear(): FaultConfig {
    return this.state.faults.clear();
  }
}
