import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '#libs/config';
import { type RunningGateway, startGateway } from '../../apps/standalone/src/start-gateway.js';
import { type RunningSimulator, defaultSimAccounts, startSimulator } from '../../apps/exchange-sim/src/index.js';

export interface Harness {
  gateway: RunningGateway;
  simulator: RunningSimulator;
  apiUrl: string;
  /** The sandbox agent key the gateway made for its data directory. */
  agentKey: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The gateway as `npm start` composes it, on free ports, against a simulator of the test's own. `env` holds the
 * environment variables of the run (DATABASE_URL, REDIS_URL, WEEX_*); with none, it is embedded sandbox mode.
 */
export async function startHarness(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<Harness> {
  const simulator = await startSimulator({ port: 0, accounts: defaultSimAccounts() });
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
  const gateway = await startGateway(config, options);
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
