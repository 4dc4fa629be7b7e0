import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '#libs/config';
import { type RunningGateway, startGateway } from '../../apps/standalone/src/start-gateway.js';
import { type RunningSimulator, type SimulatorOptions, defaultSimAccounts, startSimulator } from '../../apps/exchange-sim/src/index.js';

export interface Harness {
  gateway: RunningGateway;
  simulator: RunningSimulator;
  apiUrl: string;
  /** The sandbox agent key the gateway made for its data directory. */
  agentKey: string;
  dataDir: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Default true: the upload worker runs in the gateway's process. */
  worker?: boolean;
  /** Added to the test simulator's options, e.g. a `seedFile` with the test's own scenario. */
  simulator?: SimulatorOptions;
}

/**
 * The gateway as `npm start` composes it, on free ports, against a simulator of the test's own. `env` holds the
 * environment variables of the run (DATABASE_URL, REDIS_URL, WEEX_*); with none, it is embedded sandbox mode.
 */
export async function startHarness(env: Record<string, string> = {}, options: HarnessOptions = {}): Promise<Harness> {
  const simulator = await startSimulator({ port: 0, accounts: defaultSimAccounts(), ...options.simulator });
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}`,
    WEEX_BASE_URL: simulator.url,
    WEEX_SPOT_BASE_URL: simulator.spotUrl,
    UPLOAD_BACKOFF_MS: '50',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', // TEST_LOG_LEVEL=debug shows the gateway's logs
    ...env,
  });
  const gateway = await startGateway(config, { worker: options.worker });
  return {
    gateway,
    simulator,
    apiUrl: gateway.api.url,
    agentKey: gateway.api.access.sandboxKey ?? config.agentApiKey ?? '',
    dataDir,
    async close() {
      await gateway.close();
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
