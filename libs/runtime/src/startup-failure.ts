import { ConfigError } from '#libs/config';

/** A dependency that could not be reached at start, named for the operator (host and port only: no credentials). */
export class UnreachableError extends Error {
  constructor(what: string, url: string, cause: unknown) {
    super(`${what} at ${where(url)} cannot be reached: ${reason(cause)}`, { cause });
  }
}

/** One line per problem that stopped a process from starting, without a stack trace. */
export function describeStartupFailure(error: unknown): string[] {
  if (error instanceof ConfigError) return error.problems.map((problem) => `bad configuration: ${problem}`);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const { address, port } = error as { address?: string; port?: number };
    return [`cannot listen on ${address ?? ''}:${port ?? ''}: ${code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}`];
  }
  return [reason(error)];
}

function where(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host || url.replace(/\/\/[^@/]*@/, '//');
  } catch {
    return 'the configured address';
  }
}

function reason(error: unknown): string {
  const errors = error instanceof AggregateError ? error.errors : [error];
  const first = errors[0] as NodeJS.ErrnoException | undefined;
  const message = first instanceof Error ? first.message || first.code || first.name : String(first);
  return message.split('\n')[0];
}
