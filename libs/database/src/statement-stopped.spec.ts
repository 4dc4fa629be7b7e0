import { statementStopped } from './statement-stopped.js';

// What pg throws, and what Prisma's driver adapter makes of it (PrismaClientKnownRequestError P2010 or P2039).
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });
const prismaError = (originalCode: string, originalMessage: string) =>
  Object.assign(new Error('Invalid `prisma.$queryRaw()` invocation'), {
    code: 'P2010',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode, originalMessage, kind: 'postgres', code: originalCode } } },
  });

describe('statementStopped', () => {
  it('tells a statement timeout from a cancel, from pg and from Prisma alike', () => {
    expect(statementStopped(pgError('57014', 'canceling statement due to statement timeout'))).toBe('timeout');
    expect(statementStopped(pgError('57014', 'canceling statement due to user request'))).toBe('cancelled');
    expect(statementStopped(prismaError('57014', 'canceling statement due to statement timeout'))).toBe('timeout');
    expect(statementStopped(prismaError('57014', 'canceling statement due to user request'))).toBe('cancelled');
  });

  it('is undefined for every other error', () => {
    expect(statementStopped(pgError('40P01', 'deadlock detected'))).toBeUndefined();
    expect(statementStopped(prismaError('23505', 'duplicate key value violates unique constraint'))).toBeUndefined();
    expect(statementStopped(Object.assign(new Error('P2039'), { code: 'P2039' }))).toBeUndefined();
    expect(statementStopped(new Error('canceling statement due to statement timeout'))).toBeUndefined();
    expect(statementStopped('57014')).toBeUndefined();
    expect(statementStopped(undefined)).toBeUndefined();
  });
});
