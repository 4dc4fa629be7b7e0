/** PostgreSQL's SQLSTATE of a failed statement (pg's DatabaseError carries it as `code`). */
const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};

/** Class 22, data exception: a value PostgreSQL cannot take (an unpaired \ud800 in JSON, U+0000, a number out of range). */
export const isDataException = (error: unknown): boolean => sqlState(error)?.startsWith('22') ?? false;

/**
 * Whether a failed group commit may be the fault of one request's rows: a data exception, or an integrity constraint
 * (class 23) such as a foreign key. Either fails one statement, which rolls the whole transaction back, so writing the
 * requests again apart is safe. A lost connection or a failed COMMIT has no such code: its outcome is unknown.
 */
export const tiedToItsData = (error: unknown): boolean => /^2[23]/.test(sqlState(error) ?? '');
