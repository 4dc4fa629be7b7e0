import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig, secretValues } from '#libs/config';
import { useJsonLogs } from '#libs/logging';
import { prepareRuntime, runMain } from '#libs/runtime';
import { startApi } from './start-api.js';

// `npm run start:api`: the HTTP API alone, for deployments that scale it apart from the worker.
await runMain('api', async () => {
  const config = loadConfig();
  useJsonLogs({ level: config.logLevel, name: 'api', secrets: secretValues(config) });
  const runtime = await prepareRuntime(config);
  const api = await startApi(config, runtime).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  new Logger('Api').log(`listening on ${api.url} (${config.sandbox ? 'sandbox mode: uploads go to the simulator' : 'live WEEX'})`);
  return {
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    steps: [
      { waitingFor: 'requests under way to be answered', close: () => api.app.close() },
      { waitingFor: 'the database and queue connections to close', close: () => runtime.close() },
    ],
  };
});
