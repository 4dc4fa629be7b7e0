import { Injectable } from '@nestjs/common';
import { type AuditWitness, PrismaService } from '#libs/database';

export type WitnessState = AuditWitness;
export type WitnessOutcome = 'cosigned' | 'refused' | 'unreachable';

/** What each witness last did with each account's checkpoints (audit_witnesses). */
@Injectable()
export class AuditWitnessRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The size the witness last cosigned for the account: the next request proves consistency from it. */
  async cosignedSize(accountId: string, witness: string): Promise<bigint> {
    const row = await this.prisma.auditWitness.findUnique({ where: { accountId_witness: { accountId, witness } }, select: { cosignedSize: true } });
    return row?.cosignedSize ?? 0n;
  }

  async cosigned(accountId: string, witness: string, size: bigint, at: Date): Promise<void> {
    const data = { cosignedSize: size, cosignedAt: at, outcome: 'cosigned', error: null, attemptedAt: at };
    await this.prisma.auditWitness.upsert({ where: { accountId_witness: { accountId, witness } }, create: { accountId, witness, ...data }, update: data });
  }

  async failed(accountId: string, witness: string, outcome: Exclude<WitnessOutcome, 'cosigned'>, error: string, at: Date): Promise<void> {
    const data = { outcome, error, attemptedAt: at };
    await this.prisma.auditWitness.upsert({ where: { accountId_witness: { accountId, witness } }, create: { accountId, witness, ...data }, update: data });
  }

  list(accountId: string): Promise<WitnessState[]> {
    return this.prisma.auditWitness.findMany({ where: { accountId }, orderBy: { witness: 'asc' } });
  }

  /** Every account's witnesses, for the metrics. */
  all(): Promise<WitnessState[]> {
    return this.prisma.auditWitness.findMany({ orderBy: [{ accountId: 'asc' }, { witness: 'asc' }] });
  }
}
