import { Logger } from '@nestjs/common';
import { describeStartupFailure } from './startup-failure.js';

/** A started process: what it closes at shutdown, in order, each named for the log. */
export interface RunningProcess {
  shutdownTimeoutMs: number;
  steps: Array<{ waitingFor: string; close: () => Promise<void> }>;
}

/**
 * The main of every process. A failure to start (bad configuration, a port in use, PostgreSQL or Redis unreachable)
 * prints one line per problem, JSON when stdout is not a terminal, and exits 1 with no stack trace. SIGINT or SIGTERM
 * closes the steps in order, logging what each waits for, and gives up (exit 1) after the shutdown timeout.
 */
export async function runMain(name: string, start: () => Promise<RunningProcess>): Promise<void> {
  // Node prints its process warnings (deprecations) as plain text: through the logger instead, as JSON.
  if (!process.stdout.isTTY) {
    process.removeAllListeners('warning');
    process.on('warning', (warning) => new Logger('Node').warn(`${warning.name}: ${warning.message}`));
  }
  let running: RunningProcess;
  try {
    running = await start();
  } catch (error) {
    for (const line of describeStartupFailure(error)) printFatal(name, line);
    process.exit(1);
  }
  const logger = new Logger('Shutdown');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      let current = 'nothing yet';
      const giveUp = setTimeout(() => {
        logger.error(`gave up after ${running.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS) waiting for ${current}`);
        process.exit(1);
      }, running.shutdownTimeoutMs);
      void (async () => {
        logger.log(`${signal}: stopping (at most ${running.shutdownTimeoutMs} ms)`);
        for (const step of running.steps) {
          current = step.waitingFor;
          logger.log(`waiting for ${step.waitingFor}`);
          await step.close();
        }
        clearTimeout(giveUp);
        logger.log('stopped');
      })().catch((error: Error) => {
        logger.error(`shutdown failed while waiting for ${current}: ${error.message}`);
        process.exit(1);
      });
    });
  }
}

/** A fatal line, before any logger may exist: pino's JSON shape when stdout is not a terminal, plain text otherwise. */
function printFatal(name: string, message: string): void {
  const line = process.stdout.isTTY ? `${name}: ${message}` : JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, name, msg: message });
  process.stderr.write(`${line}\n`);
}
