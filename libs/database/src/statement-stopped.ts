/** SQLSTATE query_canceled: a statement stopped by statement_timeout or by a cancel request. */
const QUERY_CANCELED = '57014';

interface PrismaDriverError {
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; originalMessage?: unknown } } };
}

/**
 * Whether PostgreSQL stopped the statement behind `error` (pg's error, or Prisma's wrapping of it): `timeout` when
 * statement_timeout did, `cancelled` for a cancel request (a client gone, an operator); undefined for anything else.
 */
export function statementStopped(error: unknown): 'timeout' | 'cancelled' | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const cause = (error as PrismaDriverError).meta?.driverAdapterError?.cause;
  const { code, message } = cause ? { code: cause.originalCode, message: cause.originalMessage } : (error as { code?: unknown; message?: unknown });
  if (code !== QUERY_CANCELED) return undefined;
  return typeof message === 'string' && message.includes('statement timeout') ? 'timeout' : 'cancelled';
}
