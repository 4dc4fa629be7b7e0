import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { PrismaService } from '#libs/database';

/** A request's claim on its Idempotency-Key, which it records with its effects, in their transaction. */
export interface IdempotencyClaim {
  agentKeyId: string;
  key: string;
  /** SHA-256 of the method, path and body, to tell a retry from a different request with the same key. */
  requestHash: string;
  /** The status of the answer to replay. */
  status: number;
}

/** A claim with the answer the request gave: what a retry with the key gets. */
export interface KeyOutcome extends IdempotencyClaim {
  body: string;
}

/** The idempotency_keys table: one row per (agent key, Idempotency-Key), written with the request's effects. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(agentKeyId: string, key: string): Promise<KeyOutcome | null> {
    const row = await this.prisma.idempotencyKey.findUnique({ where: { agentKeyId_key: { agentKeyId, key } } });
    return row && { agentKeyId, key, requestHash: row.requestHash, status: row.responseStatus, body: row.responseBody };
  }

  /**
   * Records the outcomes on the caller's transaction, the one that commits the requests' effects, so that a key has an
   * outcome exactly when its effects are committed. Returns, per outcome, whether it was recorded: false when another
   * request recorded the key first (two processes, one key); the caller then leaves that request's effects out. A
   * key recorded by a transaction still in flight is waited for, as the unique index makes any insert wait.
   */
  async recordWithin(client: PoolClient, outcomes: KeyOutcome[]): Promise<boolean[]> {
    const { rows } = await client.query<{ agent_key_id: string; key: string }>(
      `INSERT INTO idempotency_keys (agent_key_id, key, request_hash, response_status, response_body)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[])
       ON CONFLICT (agent_key_id, key) DO NOTHING
       RETURNING agent_key_id, key`,
      [
        outcomes.map((o) => o.agentKeyId),
        outcomes.map((o) => o.key),
        outcomes.map((o) => o.requestHash),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.body),
      ],
    );
    const recorded = new Set(rows.map((row) => `${row.agent_key_id}\n${row.key}`));
    // delete: of two outcomes with one key in one statement, only the first was recorded.
    return outcomes.map((o) => recorded.delete(`${o.agentKeyId}\n${o.key}`));
  }

  /** Deletes keys older than `maxAgeMs`; returns how many. */
  async purge(maxAgeMs: number): Promise<number> {
    const { count } = await this.prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - maxAgeMs) } } });
    return count;
  }
}
