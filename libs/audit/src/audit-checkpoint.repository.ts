import { Injectable } from '@nestjs/common';
import type { CheckpointStatement } from '#libs/audit-chain';
import { type AuditCheckpoint, PrismaService } from '#libs/database';

export interface CheckpointView extends CheckpointStatement {
  signature: string;
  keyId: string;
}

/** The signed checkpoints (audit_checkpoints). */
@Injectable()
export class AuditCheckpointRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Stores a checkpoint, with its c2sp.org/tlog-checkpoint note when the log tree is signed too. */
  async create(view: CheckpointView, note?: string): Promise<bigint> {
    const { accountId, seq, hash, receiptSeq, receiptHash, at, signature, keyId } = view;
    const { id } = await this.prisma.auditCheckpoint.create({
      data: {
        accountId,
        seq: BigInt(seq),
        hash,
        receiptSeq: receiptSeq === undefined ? null : BigInt(receiptSeq),
        receiptHash,
        at: new Date(at),
        signature,
        keyId,
        note,
      },
      select: { id: true },
    });
    return id;
  }

  /** The note with the witnesses' cosignature lines added. */
  async setNote(id: bigint, note: string): Promise<void> {
    await this.prisma.auditCheckpoint.update({ where: { id }, data: { note } });
  }

  /** The latest `limit` signed notes of trees of at least `minSize` logs, newest first. */
  async notesCovering(accountId: string, minSize: bigint, limit: number): Promise<Array<{ size: bigint; note: string }>> {
    const rows = await this.prisma.auditCheckpoint.findMany({
      where: { accountId, seq: { gte: minSize }, note: { not: null } },
      orderBy: [{ seq: 'desc' }, { id: 'desc' }],
      select: { seq: true, note: true },
      take: limit,
    });
    return rows.map((r) => ({ size: r.seq, note: r.note! }));
  }

  /** The latest signed note of a tree of at least `minSize` logs (a proof of log seq s needs one of size s or more). */
  async latestNote(accountId: string, minSize = 1n): Promise<{ id: bigint; size: bigint; note: string } | undefined> {
    const row = await this.prisma.auditCheckpoint.findFirst({
      where: { accountId, seq: { gte: minSize }, note: { not: null } },
      orderBy: [{ seq: 'desc' }, { id: 'desc' }],
      select: { id: true, seq: true, note: true },
    });
    return row?.note ? { id: row.id, size: row.seq, note: row.note } : undefined;
  }

  async last(accountId: string): Promise<CheckpointView | undefined> {
    const row = await this.prisma.auditCheckpoint.findFirst({ where: { accountId }, orderBy: [{ seq: 'desc' }, { id: 'desc' }] });
    return row ? view(row) : undefined;
  }

  /** The checkpoints whose seq (or, for `receipts`, receipt seq) is in from..to, in that chain's order. */
  async list(accountId: string, chain: 'logs' | 'receipts' = 'logs', from?: bigint, to?: bigint): Promise<CheckpointView[]> {
    const range = { gte: from, lte: to };
    const rows = await this.prisma.auditCheckpoint.findMany({
      where: chain === 'logs' ? { accountId, seq: range } : { accountId, receiptSeq: { ...range, not: null } },
      orderBy: chain === 'logs' ? [{ seq: 'asc' }, { id: 'asc' }] : [{ receiptSeq: 'asc' }, { id: 'asc' }],
    });
    return rows.map(view);
  }

  /**
   * The latest checkpoint signed at or before `at` that states a log before seq `below`: every log it covers was
   * received before `at`, so a window from `at` on starts after it.
   */
  async anchorFor(accountId: string, at: Date, below: bigint): Promise<CheckpointView | undefined> {
    const row = await this.prisma.auditCheckpoint.findFirst({
      where: { accountId, at: { lte: at }, seq: { lt: below } },
      orderBy: [{ seq: 'desc' }, { id: 'desc' }],
    });
    return row ? view(row) : undefined;
  }
}

function view(row: AuditCheckpoint): CheckpointView {
  return {
    accountId: row.accountId,
    seq: row.seq.toString(),
    hash: row.hash,
    ...(row.receiptSeq === null ? {} : { receiptSeq: row.receiptSeq.toString(), receiptHash: row.receiptHash ?? '' }),
    at: row.at.toISOString(),
    signature: row.signature,
    keyId: row.keyId,
  };
}
