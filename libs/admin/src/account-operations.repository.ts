import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';

export interface AccountPauseRow {
  id: string;
  name: string;
  uploadsPausedAt: Date | null;
  /** Why, while paused: `admin`, or a reason the exchange gave (`ip_not_allowlisted`). */
  uploadsPauseReason: string | null;
}

const PAUSE_FIELDS = { id: true, name: true, uploadsPausedAt: true, uploadsPauseReason: true } as const;

/** A recent attempt of the account's uploads that did not succeed. */
export interface FailedAttemptRow {
  logId: string;
  startedAt: Date;
  outcome: string;
  target: string;
  httpStatus: number | null;
  exchangeCode: string | null;
  exchangeMessage: string | null;
}

/** What admins read and switch per account for its uploads. */
@Injectable()
export class AccountOperationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(id: string): Promise<AccountPauseRow | null> {
    return this.prisma.account.findUnique({ where: { id }, select: PAUSE_FIELDS });
  }

  /** Every account, with its pause. */
  async list(): Promise<AccountPauseRow[]> {
    return this.prisma.account.findMany({ orderBy: { id: 'asc' }, select: PAUSE_FIELDS });
  }

  /**
   * An admin pause (keeping the time of the first pause when paused already; the reason becomes `admin`, so that no
   * probe resumes it) or resume; null for an unknown account.
   */
  async setPaused(id: string, paused: boolean): Promise<AccountPauseRow | null> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string; name: string; uploads_paused_at: Date | null; uploads_pause_reason: string | null }>>`
      UPDATE accounts SET uploads_paused_at = CASE WHEN ${paused} THEN coalesce(uploads_paused_at, now()) ELSE NULL END,
        uploads_pause_reason = CASE WHEN ${paused} THEN 'admin' ELSE NULL END
      WHERE id = ${id} RETURNING id, name, uploads_paused_at, uploads_pause_reason`;
    const row = rows[0];
    return row ? { id: row.id, name: row.name, uploadsPausedAt: row.uploads_paused_at, uploadsPauseReason: row.uploads_pause_reason } : null;
  }

  /** The latest attempts of the account's logs that did not end `uploaded`, newest first. */
  async recentFailedAttempts(accountId: string, limit: number): Promise<FailedAttemptRow[]> {
    const rows = await this.prisma.uploadAttempt.findMany({
      where: { outcome: { not: 'uploaded' }, log: { accountId } },
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: { logId: true, startedAt: true, outcome: true, target: true, httpStatus: true, exchangeCode: true, exchangeMessage: true },
    });
    return rows;
  }
}
