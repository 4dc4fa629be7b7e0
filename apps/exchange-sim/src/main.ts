import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '#libs/config';
import { defaultSimAccounts } from './sim-accounts.js';
import { startSimulator } from './simulator.js';

// `npm run start:sim`: the simulator alone. Its default account uses WEEX_API_* when set (else the sandbox
// credentials), so the gateway and the simulator can share one environment.
const logger = new Logger('ExchangeSim');
const config = loadConfig();
const sim = await startSimulator({
  host: config.host,
  port: config.simPort,
  spotPort: config.simSpotPort,
  // SIM_SEED_FILE, read by libs/config like every other variable; the cast keeps this line valid while it lands there.
  seedFile: config.simSeedFile,
  accounts: defaultSimAccounts(config.weex.credentials),
  logLevels: ['log', 'error', 'warn'],
});
logger.log(
  `WEEX simulator listening on ${sim.url}, spot on ${sim.spotUrl} (${config.sandbox ? 'sandbox credentials' : 'WEEX_API_* credentials'})`,
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.log(`${signal}: closing`);
    void sim.close();
  });
}
