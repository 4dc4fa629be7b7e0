import { type DestinationStream, type Logger, pino } from 'pino';
import { registerSecret, scrub } from './secret-scrubber.js';

/** Nest's level names (LOG_LEVEL) and pino's. */
const LEVELS: Record<string, pino.Level> = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/** Paths of structured fields that hold secrets; pino removes them before a line is written. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["access-key"]',
  'req.headers["access-sign"]',
  'req.headers["access-passphrase"]',
  'req.headers.cookie',
  'headers.authorization',
  '*.apiKey',
  '*.secret',
  '*.passphrase',
  '*.credentials',
  '*.token',
];

export interface LoggerOptions {
  /** A Nest level name: fatal, error, warn, log, debug, verbose. */
  level: string;
  /** The process's name in every line (`api`, `worker`, `gateway`). */
  name: string;
  /** Values to redact from any line, e.g. the configured credentials. */
  secrets?: Array<string | undefined>;
  /** Default: stdout. */
  destination?: DestinationStream;
}

/**
 * One JSON line per event: time, level, process name, the Nest context or the request id, and the message. Secret
 * fields are redacted by path, and registered secret values by content, in every line.
 */
export function createLogger(options: LoggerOptions): Logger {
  for (const secret of options.secrets ?? []) registerSecret(secret);
  return pino(
    {
      name: options.name,
      level: LEVELS[options.level] ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      // The whole serialized line, so that a secret is caught in any field or message.
      hooks: { streamWrite: (line) => scrub(line) },
    },
    options.destination,
  );
}
