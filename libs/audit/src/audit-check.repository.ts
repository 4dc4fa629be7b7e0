import { Injectable } from '@nestjs/common';
import { type AuditCheck, PrismaService } from '#libs/database';

export type AuditCheckState = AuditCheck;

/** What a run of the check saves (everything but the account and its lease). */
export type AuditCheckUpdate = Omit<AuditCheck, 'accountId' | 'leaseUntil'>;

/** The server-side check's progress per account (audit_checks). */
@Injectable()
export class AuditCheckRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Takes the account's check until `until`, unless a run elsewhere holds it (then null): so that workers and the API
   * never check one account twice at once, and a run that died lets go when its lease ends.
   */
  async lease(accountId: string, until: Date, now: Date): Promise<AuditCheckState | null> {
    await this.prisma.auditCheck.createMany({ data: [{ accountId }], skipDuplicates: true });
    const [state] = await this.prisma.auditCheck.updateManyAndReturn({
      where: { accountId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
      data: { leaseUntil: until },
    });
    return state ?? null;
  }

  /** Saves a run and lets go of its lease; a run whose lease was taken over saves nothing. */
  async save(accountId: string, lease: Date, update: AuditCheckUpdate): Promise<void> {
    await this.prisma.auditCheck.updateMany({ where: { accountId, leaseUntil: lease }, data: { ...update, leaseUntil: null } });
  }

  async release(accountId: string, lease: Date): Promise<void> {
    await this.prisma.auditCheck.updateMany({ where: { accountId, leaseUntil: lease }, data: { leaseUntil: null } });
  }

  find(accountId: string): Promise<AuditCheckState | null> {
    return this.prisma.auditCheck.findUnique({ where: { accountId } });
  }

  /** Every account's state, for the metrics. */
  all(): Promise<AuditCheckState[]> {
    return this.prisma.auditCheck.findMany({ orderBy: { accountId: 'asc' } });
  }
}
