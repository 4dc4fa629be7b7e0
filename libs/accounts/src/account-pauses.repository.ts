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

/**
 * The pause of each account's uploads (`accounts.uploads_paused_at` and its reason): an admin's pause (libs/admin) and
 * the hold the uploader puts on an account whose IP the exchange refuses (libs/ai-log). The claims and the relay read
 * it within their own statements.
 */
@Injectable()
export class AccountPausesRepository {
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

  /**
   * Holds the account's uploads for a reason the exchange gave (e.g. `ip_not_allowlisted`) unless they are paused
   * already; true when this call held them, so that one alert is raised per hold.
   */
  async holdUploads(accountId: string, reason: string): Promise<boolean> {
    const held = await this.prisma.$executeRaw`
      UPDATE accounts SET uploads_paused_at = now(), uploads_pause_reason = ${reason} WHERE id = ${accountId} AND uploads_paused_at IS NULL`;
    return held > 0;
  }

  /** Accounts whose uploads are held for `reason`. */
  async accountsHeldFor(reason: string): Promise<string[]> {
    const rows = await this.prisma.account.findMany({ where: { uploadsPauseReason: reason, uploadsPausedAt: { not: null } }, select: { id: true } });
    return rows.map((row) => row.id);
  }

  /** Ends a hold, if the account is still held for `reason` (an admin pause is left alone); says since when it was held. */
  async releaseHold(accountId: string, reason: string): Promise<Date | null> {
    const rows = await this.prisma.$queryRaw<Array<{ pausedAt: Date }>>`
      UPDATE accounts a SET uploads_paused_at = NULL, uploads_pause_reason = NULL
      FROM (SELECT id, uploads_paused_at FROM accounts WHERE id = ${accountId} FOR UPDATE) before
      WHERE a.id = before.id AND a.uploads_pause_reason = ${reason} AND a.uploads_paused_at IS NOT NULL
      RETURNING before.uploads_paused_at AS "pausedAt"`;
    return rows[0]?.pausedAt ?? null;
  }
}
