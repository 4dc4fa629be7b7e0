import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig, secretValues } from '#libs/config';
import { useJsonLogs } from '#libs/logging';
import { runMain } from '#libs/runtime';
import { banner, startedLine } from './banner.js';
import { startGateway } from './start-gateway.js';

// The gateway of `npm start` (loaded by main.ts): api + worker (+ simulator in sandbox mode) in one process, with no
// services needed. On a terminal it prints a banner for a person; otherwise every line is JSON, for whatever collects
// the output.
await runMain('gateway', async () => {
  const config = loadConfig();
  const terminal = process.stdout.isTTY === true;
  const jsonLogs = () => useJsonLogs({ level: config.logLevel, name: 'gateway', secrets: secretValues(config) });
  if (!terminal) jsonLogs();
  const gateway = await startGateway(config);
  if (terminal) process.stdout.write(banner(gateway.config, gateway));
  else {
    // The api and the worker each made Nest's logger their own as they started; in this one process it is the gateway's.
    jsonLogs();
    const { message, fields } = startedLine(gateway.config, gateway);
    new Logger('Gateway').log({ message, ...fields });
  }
  return {
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    steps: [{ waitingFor: 'requests and uploads under way, then the database', close: () => gateway.close() }],
  };
});
