import type { AddressInfo } from 'node:net';
import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { WeexHost } from '#libs/weex-client';
import { installFaultHooks } from './faults/fault-hooks.js';
import { configureFastify } from './http/fastify-setup.js';
import { JsonResponseInterceptor } from './http/json-response.interceptor.js';
import { SimExceptionFilter } from './http/sim-exception.filter.js';
import type { BudgetOptions } from './limits/budget-config.js';
import { installBudgetHooks } from './limits/budget-hooks.js';
import { loadSeedFile } from './seed/seed-file.js';
import { defaultSimAccounts, type SimAccountSeed } from './sim-accounts.js';
import type { Clock } from './sim-clock.js';
import { SimulatorModule } from './simulator.module.js';
import { SimState } from './state/sim-state.js';
import { loadSavedState, StateFile } from './state/state-file.js';

export interface SimulatorOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0, a free one chosen by the OS (read it from `url`). */
  port?: number;
  /** Port of the spot host (spot bills only); default 0, a free one (read it from `spotUrl`). */
  spotPort?: number;
  /** Accounts the simulator knows; default {@link defaultSimAccounts}(). */
  accounts?: SimAccountSeed[];
  /**
   * A JSON file of accounts and their data (format: apps/exchange-sim/README.md), laid over `accounts`: a uid already
   * there keeps its credentials unless the file gives others; data the file leaves out is generated from the uid.
   */
  seedFile?: string;
  /** Simulator time in Unix ms, used for server time and the 30 s timestamp window; default `Date.now`. */
  clock?: () => number;
  /** Nest log levels; default errors and warnings only, so tests stay quiet. */
  logLevels?: LogLevel[];
  /** Per-IP and per-UID weight budgets; default 500 each per 10 000 ms. Changed at run time by `PUT /__sim/budgets`. */
  budgets?: BudgetOptions;
  /** Seed of the PRNG that decides rate-based faults (`PUT /__sim/faults`) and the simulated prices; default 1, so runs repeat. */
  seed?: number;
  /**
   * A file the simulator keeps its accounts' data in (orders, fills, positions, ledger): read at start when it exists,
   * laid over `accounts` and `seedFile`, and rewritten after every change. `npm start` keeps it under DATA_DIR.
   */
  stateFile?: string;
}

export interface RunningSimulator {
  /** Base URL of the contract host, e.g. `http://127.0.0.1:43210`. */
  url: string;
  /** Base URL of the spot host (spot bills); same state, other port. */
  spotUrl: string;
  /** The live state, for in-process inspection (the same data `/__sim/*` serves). */
  state: SimState;
  close(): Promise<void>;
}

/** Bodies carry free-form model input and output, for which WEEX documents no size limit [G]. */
const BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** Starts a local WEEX simulator (contract and spot hosts, every operation of the spec) and resolves once both listen. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const clock: Clock = options.clock ?? Date.now;
  const traffic = { clock, seed: options.seed, budgets: options.budgets };
  const accounts = options.accounts ?? defaultSimAccounts();
  const seeds = options.seedFile ? await loadSeedFile(options.seedFile, accounts) : accounts;
  const saved = options.stateFile ? await loadSavedState(options.stateFile, seeds) : undefined;
  const state = new SimState(saved?.seeds ?? seeds, { ...traffic, live: saved?.live });
  const stateFile = options.stateFile ? new StateFile(options.stateFile, state) : undefined;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const urlOf = (app: NestFastifyApplication) => `http://${urlHost}:${(app.getHttpServer().address() as AddressInfo).port}`;

  const contract = await listen('contract', options.port ?? 0);
  const spot = await listen('spot', options.spotPort ?? 0).catch(async (error: unknown) => {
    await contract.close();
    throw error;
  });
  return {
    url: urlOf(contract),
    spotUrl: urlOf(spot),
    state,
    close: async () => {
      await Promise.all([contract.close(), spot.close()]);
      await stateFile?.flush();
    },
  };

  /** One host's paths on one port; both hosts share the state, the clock, faults and budgets. */
  async function listen(weexHost: WeexHost, port: number): Promise<NestFastifyApplication> {
    const app = await NestFactory.create<NestFastifyApplication>(
      SimulatorModule.forRoot({ state, clock, host: weexHost }),
      // A closing simulator drops every connection, answered or not: a hung request (hangRate) must not hold it open.
      new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true }),
      { bodyParser: false, logger: options.logLevels ?? ['error', 'warn'] },
    );
    configureFastify(app);
    // Faults first: they stand for the network and WEEX's edge, in front of the budgets.
    installFaultHooks(app, state, clock);
    installBudgetHooks(app, state, clock);
    app.useGlobalFilters(new SimExceptionFilter(state, clock));
    app.useGlobalInterceptors(new JsonResponseInterceptor());
    await app.listen(port, host);
    return app;
  }
}
