import { join } from 'node:path';
import { readOrCreateSecretFile } from '#libs/common';
import { generateKey, parseSignerKey, SignedNoteError } from '#libs/signed-note';
import { type KnownLog, KnownLogs, KnownLogsError, parseKnownLogs } from '#libs/witness';

/** The witness process's settings, read once from the environment. */
export interface WitnessConfig {
  /** The signer key; never logged. */
  key: string;
  logs: KnownLog[];
  stateFile: string;
  host: string;
  port: number;
  logLevel: string;
}

/** The name of the key WITNESS_SANDBOX=true makes, and the file in DATA_DIR that keeps it. */
export const SANDBOX_WITNESS_NAME = 'sandbox-witness.local';
export const SANDBOX_KEY_FILE = 'sandbox-witness-key';

/** Every problem with the configuration, one sentence each, naming the variable and the rule. */
export class WitnessConfigError extends Error {
  override readonly name = 'WitnessConfigError';

  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const LOGS_FORM = '"<origin> <log verifier key>" entries separated by ";" or new lines (an origin "<prefix>/*" covers every "<prefix>/<segment>")';

/** Reads WITNESS_* (and DATA_DIR, LOG_LEVEL); throws a WitnessConfigError listing every problem at once. */
export function readWitnessConfig(env: NodeJS.ProcessEnv): WitnessConfig {
  const problems: string[] = [];
  const dataDir = env.DATA_DIR || './.data';
  const sandbox = env.WITNESS_SANDBOX ?? '';
  if (!['', 'true', 'false'].includes(sandbox)) problems.push(`WITNESS_SANDBOX must be "true" or "false", got ${JSON.stringify(sandbox)}`);
  const key = readKey(env.WITNESS_KEY, sandbox === 'true', dataDir, problems);

  let logs: KnownLog[] = [];
  if (!env.WITNESS_LOGS?.trim()) problems.push(`WITNESS_LOGS is required: the logs this witness cosigns for, as ${LOGS_FORM}`);
  else {
    try {
      logs = parseKnownLogs(env.WITNESS_LOGS);
      new KnownLogs(logs); // every key checked now, so that each bad entry is a line here
    } catch (error) {
      if (!(error instanceof KnownLogsError)) throw error;
      problems.push(`${error.message} (WITNESS_LOGS holds ${LOGS_FORM})`);
    }
  }

  const portText = env.WITNESS_PORT || '3300';
  const port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port <= 65_535)) problems.push(`WITNESS_PORT must be a TCP port from 0 to 65535, got ${JSON.stringify(portText)}`);
  const host = env.WITNESS_HOST ?? '127.0.0.1';
  if (!/^[^\s/]+$/.test(host)) problems.push(`WITNESS_HOST must be a host name or address to listen on, got ${JSON.stringify(host)}`);

  if (problems.length > 0) throw new WitnessConfigError(problems);
  return { key: key!, logs, stateFile: env.WITNESS_STATE_FILE || join(dataDir, 'witness-state.json'), host, port, logLevel: env.LOG_LEVEL || 'log' };
}

/** WITNESS_KEY, or in sandbox mode the key kept in DATA_DIR (made the first time); problems say which, never the key. */
function readKey(configured: string | undefined, sandbox: boolean, dataDir: string, problems: string[]): string | undefined {
  let source = 'WITNESS_KEY';
  let key = configured;
  if (!key && sandbox) {
    source = join(dataDir, SANDBOX_KEY_FILE);
    try {
      key = readOrCreateSecretFile(dataDir, SANDBOX_KEY_FILE, () => generateKey(SANDBOX_WITNESS_NAME).signerKey);
    } catch (error) {
      problems.push(`WITNESS_SANDBOX: cannot read or create the sandbox key ${source}: ${(error as Error).message}`);
      return undefined;
    }
  }
  if (!key) {
    problems.push(
      'WITNESS_KEY is required: the signer key PRIVATE+KEY+<name>+<hex key ID>+<base64> (npm run witness:keygen -- <name>), or WITNESS_SANDBOX=true',
    );
    return undefined;
  }
  try {
    parseSignerKey(key);
    return key;
  } catch (error) {
    if (!(error instanceof SignedNoteError)) throw error;
    problems.push(`${source}: ${error.message}`);
    return undefined;
  }
}
