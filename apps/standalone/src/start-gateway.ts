import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { type GatewayConfig, resolveConfig } from '#libs/config';
import { prepareRuntime, type Runtime } from '#libs/runtime';
import { type RunningApi, startApi } from '../../api/src/start-api.js';
import { defaultSimAccounts, type RunningSimulator, startSimulator } from '../../exchange-sim/src/index.js';
import type { RunningWitness } from '../../witness/src/start-witness.js';
import { startWorker } from '../../worker/src/start-worker.js';
import { startSandboxWitness } from './sandbox-witness.js';

/** The simulator's saved state under DATA_DIR. */
export const SANDBOX_STATE_FILE = 'sandbox-exchange.json';

export interface RunningGateway {
  config: GatewayConfig;
  api: RunningApi;
  /** Absent when started with `worker: false` (tests that run workers as processes of their own). */
  worker?: INestApplicationContext;
  runtime: Runtime;
  /** Started here only in sandbox mode, and only when no WEEX_BASE_URL points elsewhere. */
  simulator?: RunningSimulator;
  /** The local witness, started with the simulator unless AUDIT_WITNESSES names witnesses. */
  witness?: RunningWitness;
  close(): Promise<void>;
}

/**
 * Everything in one process, as `npm start` runs it: the simulator in sandbox mode, the database and queue backend,
 * the API and the upload worker. Stops in reverse order.
 */
export async function startGateway(settings: GatewayConfig, options: { worker?: boolean } = {}): Promise<RunningGateway> {
  const simulator =
    settings.sandbox && !settings.weexBaseUrl && !settings.simUrl
      ? await startSimulator({
          port: settings.simPort,
          spotPort: settings.simSpotPort,
          seedFile: settings.simSeedFile,
          accounts: defaultSimAccounts(settings.weex.credentials),
          // The sandbox keeps its orders, fills and positions across restarts, beside the database that synced them.
          stateFile: join(settings.dataDir, SANDBOX_STATE_FILE),
        })
      : undefined;
  const sandboxWitness = simulator && !settings.auditWitnesses ? await startSandboxWitness(settings) : undefined;
  // With SIM_PORT=0 the simulator picks its ports, so the exchange URLs are known only now; the witness's port too.
  const config = simulator
    ? resolveConfig({
        ...settings,
        weexBaseUrl: simulator.url,
        weexSpotBaseUrl: simulator.spotUrl,
        auditWitnesses: settings.auditWitnesses ?? sandboxWitness?.entry,
      })
    : settings;
  const runtime = await prepareRuntime(config);
  // The API first: it makes the sandbox account's row at start, which the worker's first evidence sync (at once) needs.
  const api = await startApi(config, runtime);
  const worker =
    options.worker === false
      ? undefined
      : await startWorker(config, runtime).catch(async (error: unknown) => {
          await api.app.close();
          throw error;
        });
  return {
    config,
    api,
    worker,
    runtime,
    simulator,
    witness: sandboxWitness?.witness,
    async close() {
      await api.app.close();
      await worker?.close();
      await runtime.close();
      await simulator?.close();
      await sandboxWitness?.witness.close();
    },
  };
}
