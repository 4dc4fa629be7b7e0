import { Injectable } from '@nestjs/common';
import { type AiLogStatus, likeLiteral, type Prisma, PrismaService } from '#libs/database';
import type { AiLogWithAttempts } from './ai-log.repository.js';

/** Which logs an admin list shows; every field narrows it. */
export interface LogFilter {
  statuses?: AiLogStatus[];
  accountId?: string;
  receivedFrom?: Date;
  receivedBefore?: Date;
  errorContains?: string;
  model?: string;
  stage?: string;
  orderId?: bigint;
  /** A substring of the explanation, in any case. */
  explanationContains?: string;
}

/** Where a page ends: the last log's (received_at, id); the next page starts strictly after it. */
export interface LogCursor {
  receivedAt: Date;
  id: string;
}

/** A log in a list: what an operator scans for, without its input and output. */
export interface AdminLogRow {
  id: string;
  accountId: string;
  status: AiLogStatus;
  orderId: bigint | null;
  stage: string;
  model: string;
  explanation: string;
  attemptCount: number;
  lastError: string | null;
  receivedAt: Date;
  nextAttemptAt: Date;
  uploadedAt: Date | null;
}

/** A recent attempt of the account's uploads that did not succeed. */
export interface FailedAttemptRow {
  logId: string;
  startedAt: Date;
  outcome: string;
  target: string;
  httpStatus: number | null;
  exchangeCode: string | null;
  exchangeMessage: string | null;
}

/** Logs of every account and their failed attempts, for admins (libs/admin's views of the logs and of an account). */
@Injectable()
export class AdminLogsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Newest first, `limit` of them after the cursor (keyset on received_at, id: stable while logs arrive). */
  async list(filter: LogFilter, limit: number, after?: LogCursor): Promise<AdminLogRow[]> {
    const where: Prisma.AiLogWhereInput = {
      status: filter.statuses ? { in: filter.statuses } : undefined,
      accountId: filter.accountId,
      receivedAt: { gte: filter.receivedFrom, lt: filter.receivedBefore },
      lastError: filter.errorContains === undefined ? undefined : { contains: likeLiteral(filter.errorContains), mode: 'insensitive' },
      model: filter.model,
      stage: filter.stage,
      orderId: filter.orderId,
      explanation: filter.explanationContains === undefined ? undefined : { contains: likeLiteral(filter.explanationContains), mode: 'insensitive' },
      AND: after ? [{ OR: [{ receivedAt: { lt: after.receivedAt } }, { receivedAt: after.receivedAt, id: { lt: after.id } }] }] : undefined,
    };
    return this.prisma.aiLog.findMany({
      where,
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: {
        id: true,
        accountId: true,
        status: true,
        orderId: true,
        stage: true,
        model: true,
        explanation: true,
        attemptCount: true,
        lastError: true,
        receivedAt: true,
        nextAttemptAt: true,
        uploadedAt: true,
      },
    });
  }

  /** One log of any account, with every attempt in order. */
  async find(id: string): Promise<AiLogWithAttempts | null> {
    return this.prisma.aiLog.findUnique({ where: { id }, include: { attempts: { orderBy: { startedAt: 'asc' } } } });
  }

  async status(id: string): Promise<AiLogStatus | undefined> {
    return (await this.prisma.aiLog.findUnique({ where: { id }, select: { status: true } }))?.status;
  }

  /** The latest attempts of the account's logs that did not end `uploaded`, newest first. */
  async recentFailedAttempts(accountId: string, limit: number): Promise<FailedAttemptRow[]> {
    const rows = await this.prisma.uploadAttempt.findMany({
      where: { outcome: { not: 'uploaded' }, log: { accountId } },
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: { logId: true, startedAt: true, outcome: true, target: true, httpStatus: true, exchangeCode: true, exchangeMessage: true },
    });
    return rows;
  }
}
