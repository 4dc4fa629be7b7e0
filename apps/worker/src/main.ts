import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig, secretValues } from '#libs/config';
import { useJsonLogs } from '#libs/logging';
import { prepareRuntime, runMain } from '#libs/runtime';
import { startWorker } from './start-worker.js';

// `npm run start:worker`: the upload worker alone; run as many as the exchange budget allows.
await runMain('worker', async () => {
  const config = loadConfig();
  useJsonLogs({ level: config.logLevel, name: 'worker', secrets: secretValues(config) });
  const runtime = await prepareRuntime(config);
  const worker = await startWorker(config, runtime).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  new Logger('Worker').log(`uploading to ${config.weex.baseUrl} (${config.sandbox ? 'sandbox mode: the simulator' : 'live WEEX'})`);
  return {
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    steps: [
      { waitingFor: 'uploads under way to be answered and recorded', close: () => worker.close() },
      { waitingFor: 'the database and queue connections to close', close: () => runtime.close() },
    ],
  };
});
