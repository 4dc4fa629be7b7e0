import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig, secretValues } from '#libs/config';
import { useJsonLogs } from '#libs/logging';
import { runMain } from '#libs/runtime';
import { defaultSimAccounts } from './sim-accounts.js';
import { startSimulator } from './simulator.js';

// `npm run start:sim`: the simulator alone. Its default account uses WEEX_API_* when set (else the sandbox
// credentials), so the gateway and the simulator can share one environment. JSON lines when stdout is not a terminal.
await runMain('exchange-sim', async () => {
  const config = loadConfig();
  if (!process.stdout.isTTY) useJsonLogs({ level: config.logLevel, name: 'exchange-sim', secrets: secretValues(config) });
  const sim = await startSimulator({
    host: config.host,
    port: config.simPort,
    spotPort: config.simSpotPort,
    seedFile: config.simSeedFile,
    accounts: defaultSimAccounts(config.weex.credentials),
    logLevels: ['log', 'error', 'warn'],
  });
  new Logger('ExchangeSim').log(
    `WEEX simulator listening on ${sim.url}, spot on ${sim.spotUrl} (${config.sandbox ? 'sandbox credentials' : 'WEEX_API_* credentials'})`,
  );
  return { shutdownTimeoutMs: config.shutdownTimeoutMs, steps: [{ waitingFor: 'the simulator to close', close: () => sim.close() }] };
});
