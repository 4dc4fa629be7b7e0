import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '#libs/config';
import { prepareRuntime } from '#libs/runtime';
import { startApi } from './start-api.js';

// `npm run start:api`: the HTTP API alone, for deployments that scale it apart from the worker.
const config = loadConfig();
const runtime = await prepareRuntime(config);
const api = await startApi(config, runtime);
new Logger('Api').log(`listening on ${api.url} (${config.sandbox ? 'sandbox mode: uploads go to the simulator' : 'live WEEX'})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await api.app.close();
    await runtime.close();
  });
}
