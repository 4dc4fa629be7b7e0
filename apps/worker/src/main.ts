import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '#libs/config';
import { prepareRuntime } from '#libs/runtime';
import { startWorker } from './start-worker.js';

// `npm run start:worker`: the upload worker alone; run as many as the exchange budget allows.
const config = loadConfig();
const runtime = await prepareRuntime(config);
const worker = await startWorker(config, runtime);
new Logger('Worker').log(`uploading to ${config.weex.baseUrl} (${config.sandbox ? 'sandbox mode: the simulator' : 'live WEEX'})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await worker.close();
    await runtime.close();
  });
}
