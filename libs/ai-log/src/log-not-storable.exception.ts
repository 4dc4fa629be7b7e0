import { HttpException } from '@nestjs/common';

/** PostgreSQL's SQLSTATE of a failed statement (pg's DatabaseError carries it as `code`). */
const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};

/** Class 22, data exception: a value PostgreSQL cannot take (an unpaired \ud800 in JSON, U+0000, a number out of range). */
export const isDataException = (error: unknown): boolean => sqlState(error)?.startsWith('22') ?? false;

/**
 * Whether a failed group commit may be the fault of one request's logs: a data exception, or an integrity constraint
 * (class 23) such as a foreign key. Either fails one statement, which rolls the whole transaction back, so writing the
 * requests again apart is safe. A lost connection or a failed COMMIT has no such code: its outcome is unknown.
 */
export const tiedToItsData = (error: unknown): boolean => /^2[23]/.test(sqlState(error) ?? '');

/** 400: PostgreSQL refused to store the request's logs. Validation should have caught it; this is the backstop. */
export class LogNotStorableException extends HttpException {
  constructor(cause: unknown) {
    const { message, detail } = cause as { message: string; detail?: string };
    // The statement held only this request's logs (the others were written apart), so its message tells no one else's data.
    super({ code: 'LOG_NOT_STORABLE', message: `PostgreSQL refused to store the log: ${message}${detail ? ` (${detail})` : ''}` }, 400, { cause });
  }
}
