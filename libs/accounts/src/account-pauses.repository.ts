import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '#libs/database';

export interface AccountPauseRow {
  id: string;
  name: string;
  uploadsPausedAt: Date | null;
  /** Why, while paused: `admin`, or a reason the exchange gave (`ip_not_allowlisted`). */
  uploadsPauseReason: string | null;
}

const PAUSE_FIELDS = { id: true, name: true, uploadsPausedAt: true, uploadsPauseReason: true } as const;

/** Opens a pause of the CTE `updated`'s account at its uploads_paused_at, if set (again, if one of that instant was closed). */
const openPause = Prisma.sql`
  INSERT INTO upload_pauses (account_id, paused_at) SELECT id, uploads_paused_at FROM updated WHERE uploads_paused_at IS NOT NULL
  ON CONFLICT (account_id, paused_at) DO UPDATE SET resumed_at = NULL`;

/** Closes the open pause of the CTE `updated`'s account, if it is no longer paused. */
const closePause = Prisma.sql`
  UPDATE upload_pauses p SET resumed_at = now() FROM updated u
  WHERE p.account_id = u.id AND u.uploads_paused_at IS NULL AND p.resumed_at IS NULL`;

/**
 * The pause of each account's uploads (`accounts.uploads_paused_at` and its reason; each pause's span in
 * `upload_pauses`): an admin's pause (libs/admin) and the hold the uploader puts on an account whose IP the exchange
 * refuses (libs/ai-log). The claims and the relay read it within their own statements.
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
   * probe resumes it) or resume; null for an unknown account. upload_pauses records the pause's start and end.
   */
  async setPaused(id: string, paused: boolean): Promise<AccountPauseRow | null> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string; name: string; uploads_paused_at: Date | null; uploads_pause_reason: string | null }>>`
      WITH updated AS (
        UPDATE accounts SET uploads_paused_at = CASE WHEN ${paused} THEN coalesce(uploads_paused_at, now()) ELSE NULL END,
          uploads_pause_reason = CASE WHEN ${paused} THEN 'admin' ELSE NULL END
        WHERE id = ${id} RETURNING id, name, uploads_paused_at, uploads_pause_reason
      ), opened AS (${openPause}), closed AS (${closePause})
      SELECT * FROM updated`;
    const row = rows[0];
    return row ? { id: row.id, name: row.name, uploadsPausedAt: row.uploads_paused_at, uploadsPauseReason: row.uploads_pause_reason } : null;
  }

  /**
   * Holds the account's uploads for a reason the exchange gave (e.g. `ip_not_allowlisted`) unless they are paused
   * already; true when this call held them, so that one alert is raised per hold.
   */
  async holdUploads(accountId: string, reason: string): Promise<boolean> {
    const held = await this.prisma.$queryRaw<Array<{ id: string }>>`
      WITH updated AS (
        UPDATE accounts SET uploads_paused_at = now(), uploads_pause_reason = ${reason} WHERE id = ${accountId} AND uploads_paused_at IS NULL
        RETURNING id, uploads_paused_at
      ), opened AS (${openPause})
      SELECT id FROM updated`;
    return held.length > 0;
  }

  /** Accounts whose uploads are held for `reason`. */
  async accountsHeldFor(reason: string): Promise<string[]> {
    const rows = await this.prisma.account.findMany({ where: { uploadsPauseReason: reason, uploadsPausedAt: { not: null } }, select: { id: true } });
    return rows.map((row) => row.id);
  }

  /** Ends a hold, if the account is still held for `reason` (an admin pause is left alone); says whether it did. */
  async releaseHold(accountId: string, reason: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      WITH updated AS (
        UPDATE accounts SET uploads_paused_at = NULL, uploads_pause_reason = NULL
        WHERE id = ${accountId} AND uploads_pause_reason = ${reason} AND uploads_paused_at IS NOT NULL
        RETURNING id, uploads_paused_at
      ), closed AS (${closePause})
      SELECT id FROM updated`;
    return rows.length > 0;
  }

  /** How long the account's uploads were paused or held since `from` (to now), in milliseconds. */
  async pausedMsSince(accountId: string, from: Date): Promise<number> {
    const [row] = await this.prisma.$queryRaw<Array<{ ms: number }>>`
      SELECT coalesce(sum(extract(epoch FROM coalesce(resumed_at, now()) - greatest(paused_at, ${from}::timestamptz))), 0)::float8 * 1000 AS ms
      FROM upload_pauses WHERE account_id = ${accountId} AND coalesce(resumed_at, 'infinity') > ${from}::timestamptz`;
    return Math.max(0, row.ms);
  }
}
