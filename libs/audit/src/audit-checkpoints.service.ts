import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import { AuditSigner } from './audit-signer.js';
import { type CheckpointStatement, keyIdOf, signCheckpoint } from '#libs/audit-chain';

export interface ChainHead {
  seq: string;
  hash: string;
  /** When the head last moved (the last append). */
  at: string;
}

export interface CheckpointView extends CheckpointStatement {
  signature: string;
  keyId: string;
}

/** The chain's head and its signed checkpoints. */
@Injectable()
export class AuditCheckpoints {
  constructor(
    private readonly prisma: PrismaService,
    private readonly signer: AuditSigner,
  ) {}

  async head(accountId: string): Promise<ChainHead> {
    const head = await this.prisma.auditHead.findUnique({ where: { accountId } });
    // An account without logs has the empty chain: seq 0 and the genesis hash.
    if (!head) return { seq: '0', hash: '0'.repeat(64), at: new Date(0).toISOString() };
    return { seq: head.seq.toString(), hash: head.hash, at: head.updatedAt.toISOString() };
  }

  /**
   * Signs the account's head unless the last checkpoint already states it. Returns the new checkpoint, or undefined
   * (no key configured, an empty chain, or nothing new).
   */
  async checkpoint(accountId: string, now = new Date()): Promise<CheckpointView | undefined> {
    const key = this.signer.privateKey();
    if (!key) return undefined;
    const head = await this.head(accountId);
    if (head.seq === '0') return undefined;
    const last = await this.prisma.auditCheckpoint.findFirst({ where: { accountId }, orderBy: { seq: 'desc' } });
    if (last && last.seq.toString() === head.seq) return undefined;
    const statement: CheckpointStatement = { accountId, seq: head.seq, hash: head.hash, at: now.toISOString() };
    const view = { ...statement, signature: signCheckpoint(key, statement), keyId: keyIdOf(key) };
    await this.prisma.auditCheckpoint.create({ data: { accountId, seq: BigInt(head.seq), hash: head.hash, at: now, signature: view.signature, keyId: view.keyId } });
    return view;
  }

  /** Every account that has a chain, for the periodic checkpoint job. */
  async accountsWithChains(): Promise<string[]> {
    return (await this.prisma.auditHead.findMany({ select: { accountId: true } })).map((h) => h.accountId);
  }

  async list(accountId: string, fromSeq?: bigint, toSeq?: bigint): Promise<CheckpointView[]> {
    const rows = await this.prisma.auditCheckpoint.findMany({
      where: { accountId, seq: { gte: fromSeq, lte: toSeq } },
      orderBy: { seq: 'asc' },
    });
    return rows.map((row) => ({ accountId, seq: row.seq.toString(), hash: row.hash, at: row.at.toISOString(), signature: row.signature, keyId: row.keyId }));
  }
}
