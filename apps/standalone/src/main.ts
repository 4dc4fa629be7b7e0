import 'reflect-metadata';
import { loadConfig } from '#libs/config';
import { banner } from './banner.js';
import { startGateway } from './start-gateway.js';

// `npm start`: api + worker (+ simulator in sandbox mode) in one process, with no services needed.
const config = loadConfig();
const gateway = await startGateway(config);
process.stdout.write(banner(gateway.config, gateway));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void gateway.close());
}
