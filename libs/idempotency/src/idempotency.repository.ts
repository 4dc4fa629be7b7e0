import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** The idempotency_keys table: one row per (agent key, Idempotency-Key). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Reserves the key for this request, or says why not. An in-flight reservation whose lock lapsed (its request died)
   * is taken over, since nothing was committed under it.
   */
  async reserve(agentKeyId: string, key: string, requestHash: string, lockMs: number): Promise<Reservation> {
    const lockedUntil = new Date(Date.now() + lockMs);
    const inserted = await this.prisma.$executeRaw`
      INSERT INTO idempotency_keys (agent_key_id, key, request_hash, locked_until)
      VALUES (${agentKeyId}, ${key}, ${requestHash}, ${lockedUntil})
      ON CONFLICT (agent_key_id, key) DO NOTHING`;
    if (inserted === 1) return { kind: 'reserved' };
    const row = await this.prisma.idempotencyKey.findUnique({ where: { agentKeyId_key: { agentKeyId, key } } });
    if (!row) return this.reserve(agentKeyId, key, requestHash, lockMs);
    if (row.requestHash !== requestHash) return { kind: 'mismatch' };
    if (row.responseStatus !== null) return { kind: 'replay', status: row.responseStatus, body: row.responseBody ?? '' };
    const { count } = await this.prisma.idempotencyKey.updateMany({
      where: { agentKeyId, key, responseStatus: null, lockedUntil: { lt: new Date() } },
      data: { lockedUntil },
    });
    return count === 1 ? { kind: 'reserved' } : { kind: 'in_flight' };
  }

  async complete(agentKeyId: string, key: string, status: number, body: string): Promise<void> {
    await this.prisma.idempotencyKey.update({
      where: { agentKeyId_key: { agentKeyId, key } },
      data: { responseStatus: status, responseBody: body },
    });
  }

  /** Frees a reservation whose request failed without an answer worth replaying, so that a retry can run. */
  async release(agentKeyId: string, key: string): Promise<void> {
    await this.prisma.idempotencyKey.deleteMany({ where: { agentKeyId, key, responseStatus: null } });
  }

  /** Deletes keys older than `maxAgeMs`; returns how many. */
  async purge(maxAgeMs: number): Promise<number> {
    const { count } = await this.prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - maxAgeMs) } } });
    return count;
  }
}
