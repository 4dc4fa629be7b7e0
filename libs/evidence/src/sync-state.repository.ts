import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';

/** The evidence streams of an account, in the order a run syncs them: fills first, so that their orders can be looked up. */
export const STREAMS = ['trades', 'orders', 'plan_orders'] as const;
export type StreamName = (typeof STREAMS)[number];

export interface StreamState {
  stream: StreamName;
  syncedUntil: Date | null;
  lastRunAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastRows: number;
  totalRows: bigint;
}

/** sync_streams: how far each stream of each account got, and how its last runs went. */
@Injectable()
export class SyncStateRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Every stream of the account, those that never ran included (with nulls). */
  async find(accountId: string): Promise<StreamState[]> {
    const rows = await this.prisma.syncStream.findMany({ where: { accountId } });
    return STREAMS.map((stream) => {
      const row = rows.find((r) => r.stream === stream);
      return {
        stream,
        syncedUntil: row?.syncedUntil ?? null,
        lastRunAt: row?.lastRunAt ?? null,
        lastSuccessAt: row?.lastSuccessAt ?? null,
        lastError: row?.lastError ?? null,
        lastErrorAt: row?.lastErrorAt ?? null,
        lastRows: row?.lastRows ?? 0,
        totalRows: row?.totalRows ?? 0n,
      };
    });
  }

  async started(accountId: string, stream: StreamName, at: Date): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO sync_streams (account_id, stream, last_run_at) VALUES (${accountId}, ${stream}, ${at})
      ON CONFLICT (account_id, stream) DO UPDATE SET last_run_at = EXCLUDED.last_run_at`;
  }

  /** Everything created before `until` has been pulled. Never moves back (a run may re-read older windows). */
  async advanced(accountId: string, stream: StreamName, until: Date): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE sync_streams SET synced_until = GREATEST(synced_until, ${until})
      WHERE account_id = ${accountId} AND stream = ${stream}`;
  }

  async succeeded(accountId: string, stream: StreamName, at: Date, rows: number): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE sync_streams SET last_success_at = ${at}, last_rows = ${rows}, total_rows = total_rows + ${rows}
      WHERE account_id = ${accountId} AND stream = ${stream}`;
  }

  /** The error stays after later successes, so that a reader can see what went wrong last; compare the two times. */
  async failed(accountId: string, stream: StreamName, at: Date, error: string, rows: number): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE sync_streams SET last_error = ${error}, last_error_at = ${at}, total_rows = total_rows + ${rows}
      WHERE account_id = ${accountId} AND stream = ${stream}`;
  }
}
