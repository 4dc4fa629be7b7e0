import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import type { AgentIdentity } from './accounts.repository.js';
import type { AgentScope } from '#libs/config';

export type ConsoleRole = 'team' | 'judge' | 'admin';

/** A live session as the guards see it: a team or judge session carries its key's identity, looked up anew. */
export interface ConsoleSessionRow {
  role: ConsoleRole;
  label: string;
  expiresAt: Date;
  /** For an admin session: HMAC-SHA256 (hex) of the admin token it was given, keyed by the session's token. */
  adminTokenHash: string | null;
  /** For a team or judge session: its key, if that is still neither revoked nor expired. */
  agent: AgentIdentity | null;
}

/** The owner of `console_sessions`. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(session: { tokenHash: string; role: ConsoleRole; agentKeyId: string | null; adminTokenHash: string | null; expiresAt: Date }): Promise<void> {
    await this.prisma.consoleSession.create({ data: session });
  }

  /** The session, unless it ended; its key's revocation and expiry are the caller's to judge from `agent`. */
  async find(tokenHash: string, now = new Date()): Promise<ConsoleSessionRow | undefined> {
    const row = await this.prisma.consoleSession.findUnique({
      where: { tokenHash },
      select: {
        role: true,
        expiresAt: true,
        adminTokenHash: true,
        agentKey: { select: { id: true, accountId: true, label: true, scopes: true, rateLimitPerMin: true, revokedAt: true, expiresAt: true } },
      },
    });
    if (!row || row.expiresAt <= now) return undefined;
    const key = row.agentKey;
    const live = key && !key.revokedAt && !(key.expiresAt && key.expiresAt <= now);
    return {
      role: row.role as ConsoleRole,
      label: key?.label ?? 'admin',
      expiresAt: row.expiresAt,
      adminTokenHash: row.adminTokenHash,
      agent: live ? { agentKeyId: key.id, accountId: key.accountId, scopes: key.scopes as AgentScope[], rateLimitPerMin: key.rateLimitPerMin } : null,
    };
  }

  async delete(tokenHash: string): Promise<void> {
    await this.prisma.consoleSession.deleteMany({ where: { tokenHash } });
  }

  /** Ends the key's sessions (the admin's, for null) but the newest `keep`: a flood of sign-ins cannot grow the table. */
  async keepNewest(agentKeyId: string | null, keep: number): Promise<void> {
    const where = agentKeyId === null ? { role: 'admin' } : { agentKeyId };
    const older = await this.prisma.consoleSession.findMany({ where, orderBy: { createdAt: 'desc' }, skip: keep, select: { tokenHash: true } });
    if (older.length > 0) await this.prisma.consoleSession.deleteMany({ where: { tokenHash: { in: older.map((row) => row.tokenHash) } } });
  }

  /** Sessions that ended: removed at each sign-in, so the table holds only live ones and a few hours' leftovers. */
  async deleteEnded(now = new Date()): Promise<void> {
    await this.prisma.consoleSession.deleteMany({ where: { expiresAt: { lte: now } } });
  }
}
