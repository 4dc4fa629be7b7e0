import { Logger as NestLogger, type LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import { createLogger, type LoggerOptions } from './pino-logger.js';

/**
 * Makes Nest's Logger write JSON through pino from now on, before any application exists: what a process logs while
 * it prepares its database and Redis would otherwise be Nest's coloured text.
 */
export function useJsonLogs(options: LoggerOptions): void {
  NestLogger.overrideLogger(new PinoNestLogger(createLogger(options)));
}

/**
 * Nest's account of its own start (each module loaded, each route mapped: some ninety lines) at debug, not info: at
 * the default level a start then logs what it did that a person or a log collector would act on.
 */
const BOOTSTRAP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's Logger calls, written through pino: the context (class name) becomes a field, errors keep their stack. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write(BOOTSTRAP_CONTEXTS.has(rest.at(-1) as string) ? 'debug' : 'info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack, context) for errors.
    const [stack, context] = rest.length >= 2 ? rest : [undefined, rest[0]];
    this.logger.error({ context, ...(typeof stack === 'string' ? { stack } : {}) }, text(message));
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, rest: unknown[]): void {
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    // `{ message, ...fields }` logs the fields as fields of the line (a started line's URL, say), not as text.
    if (message && typeof message === 'object' && typeof (message as { message?: unknown }).message === 'string' && !(message instanceof Error)) {
      const { message: msg, ...fields } = message as { message: string };
      return this.logger[level]({ ...fields, context }, msg);
    }
    this.logger[level]({ context }, text(message));
  }
}

function text(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message instanceof Error) return message.message;
  try {
    return JSON.stringify(message);
  } catch {
    return String(message);
  }
}
