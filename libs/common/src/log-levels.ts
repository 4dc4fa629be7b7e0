import type { LogLevel } from '@nestjs/common';

const ORDER: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Nest enables the levels it is given; a threshold such as `log` means `log` and everything more severe. */
export function logLevelsFrom(threshold: string): LogLevel[] {
  const index = ORDER.indexOf(threshold as LogLevel);
  return ORDER.slice(0, index < 0 ? 4 : index + 1);
}
