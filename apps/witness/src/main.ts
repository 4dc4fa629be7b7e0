import { createLogger } from '#libs/logging';
import { readWitnessConfig, WitnessConfigError } from './witness-config.js';
import { startWitness } from './start-witness.js';

// `npm run start:witness`: a c2sp.org/tlog-witness witness (docs/witness.md). A bad configuration, an unreadable state
// file or a port in use: one line per problem on stderr and exit 1.
const fatal = (lines: string[]): never => {
  for (const line of lines) process.stderr.write(`witness: ${line}\n`);
  process.exit(1);
};

const { key, logs, stateFile, host, port, logLevel } = (() => {
  try {
    return readWitnessConfig(process.env);
  } catch (error) {
    if (!(error instanceof WitnessConfigError)) throw error;
    return fatal(error.problems);
  }
})();
// The signer key is never logged; registered anyway, so that no line can carry it (the whole key or its base64).
const logger = createLogger({ level: logLevel, name: 'witness', secrets: [key, key.split('+').slice(4).join('+')] });
const running = await startWitness({ key, logs, stateFile, host, port, logger }).catch((error: Error) => fatal([error.message]));
logger.info(
  { url: running.url, witness: running.name, verifierKey: running.verifierKey, logs: logs.map((log) => log.origin), stateFile },
  `listening on ${running.url}: witness ${running.name}, verifier key ${running.verifierKey}`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, `${signal}: stopping`);
    running.close().then(
      () => process.exit(0),
      (error: Error) => fatal([`shutdown failed: ${error.message}`]),
    );
  });
}
