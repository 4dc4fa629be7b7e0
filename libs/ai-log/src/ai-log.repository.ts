import { Injectable } from '@nestjs/common';
import { type AiLog, AiLogStatus, PrismaService, type UploadAttempt } from '#libs/database';

export interface AttemptRecord {
  target: 'simulator' | 'exchange';
  url: string;
  startedAt: Date;
  finishedAt: Date;
  outcome: 'uploaded' | 'retryable' | 'permanent' | 'uncertain';
  httpStatus?: number;
  exchangeCode?: string;
  exchangeMessage?: string;
}

export type AiLogWithAttempts = AiLog & { attempts: UploadAttempt[] };

/** A log to (re)queue: its job id is made of both. */
export interface DueLog {
  id: string;
  attemptCount: number;
}

/** Which failed logs an admin retry takes; every field narrows it. */
export interface FailedLogFilter {
  id?: string;
  accountId?: string;
  /** Received at or after. */
  receivedFrom?: Date;
  /** Received before. */
  receivedBefore?: Date;
  /** A substring of last_error, any case. */
  errorContains?: string;
}

/** The AI-log tables. The database is the source of truth for a log's state; the queue only wakes the worker. */
@Injectable()
export class AiLogRepository {
  constructor(private readonly prisma: PrismaService) {}

  async findForAccount(id: string, accountId: string): Promise<AiLogWithAttempts | null> {
    return this.prisma.aiLog.findFirst({
      where: { id, accountId },
      include: { attempts: { orderBy: { startedAt: 'asc' } } },
    });
  }

  /**
   * Marks a due log as being uploaded by the caller until `claimMs` from now. A log whose claim lapsed (its worker died
   * mid-upload) can be claimed again; since that upload may have reached the exchange, it is recorded as an
   * `uncertain` attempt first. Returns null when the log is not claimable (done, or held by a live claim).
   */
  async claim(id: string, claimMs: number): Promise<AiLog | null> {
    const now = new Date();
    const lapsed = await this.prisma.aiLog.findFirst({
      where: { id, status: AiLogStatus.uploading, claimedUntil: { lt: now } },
      select: { id: true },
    });
    const { count } = await this.prisma.aiLog.updateMany({
      where: {
        id,
        OR: [{ status: { in: [AiLogStatus.queued, AiLogStatus.retrying] } }, { status: AiLogStatus.uploading, claimedUntil: { lt: now } }],
      },
      data: { status: AiLogStatus.uploading, attemptCount: { increment: 1 }, claimedUntil: new Date(now.getTime() + claimMs) },
    });
    if (count !== 1) return null;
    if (lapsed) {
      await this.prisma.uploadAttempt.create({
        data: {
          logId: id, target: 'exchange', url: '', startedAt: now, finishedAt: now, latencyMs: 0, outcome: 'uncertain',
          exchangeMessage: 'the worker stopped before recording the outcome of this attempt',
        },
      });
    }
    return this.prisma.aiLog.findUnique({ where: { id } });
  }

  /**
   * Logs the relay should (re)queue: due and waiting, or holding a lapsed claim, of accounts whose uploads are not
   * paused. In id (time) order, after `after`.
   */
  async findDue(dueBefore: Date, limit: number, after?: string): Promise<DueLog[]> {
    return this.prisma.aiLog.findMany({
      where: {
        id: after ? { gt: after } : undefined,
        account: { uploadsPausedAt: null },
        OR: [
          { status: { in: [AiLogStatus.queued, AiLogStatus.retrying] }, nextAttemptAt: { lte: dueBefore } },
          { status: AiLogStatus.uploading, claimedUntil: { lt: new Date() } },
        ],
      },
      select: { id: true, attemptCount: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /**
   * Hands back a claimed log whose attempt never reached the exchange: due again at `nextAttemptAt`. The claim count
   * stays, so that the relay queues it under a job id of its own.
   */
  async release(id: string, nextAttemptAt: Date): Promise<void> {
    await this.prisma.aiLog.updateMany({
      where: { id, status: AiLogStatus.uploading },
      data: { status: AiLogStatus.retrying, claimedUntil: null, nextAttemptAt },
    });
  }

  /** Whether an admin paused uploads for the account. */
  async uploadsPaused(accountId: string): Promise<boolean> {
    const account = await this.prisma.account.findUnique({ where: { id: accountId }, select: { uploadsPausedAt: true } });
    return account?.uploadsPausedAt != null;
  }

  /**
   * An admin retry: the failed logs matching the filter go back to `queued`, due now; returns them, to be queued.
   * attempt_count is kept, not reset: it names the jobs of a log's attempts, and a new job must not take the id of an
   * old one the queue still keeps (BullMQ ignores an add whose id it holds).
   */
  async requeueFailed(filter: FailedLogFilter): Promise<DueLog[]> {
    const { id, accountId, receivedFrom, receivedBefore, errorContains } = filter;
    return this.prisma.aiLog.updateManyAndReturn({
      where: {
        status: AiLogStatus.failed,
        id,
        accountId,
        receivedAt: { gte: receivedFrom, lt: receivedBefore },
        lastError: errorContains === undefined ? undefined : { contains: errorContains, mode: 'insensitive' },
      },
      data: { status: AiLogStatus.queued, nextAttemptAt: new Date(), retriedAt: new Date(), claimedUntil: null },
      select: { id: true, attemptCount: true },
    });
  }

  /** When an account's uploads resume: every log of it that waits is due now. Returns them, to be queued. */
  async makeDueNow(accountId: string): Promise<DueLog[]> {
    return this.prisma.aiLog.updateManyAndReturn({
      where: { accountId, status: { in: [AiLogStatus.queued, AiLogStatus.retrying] } },
      data: { nextAttemptAt: new Date() },
      select: { id: true, attemptCount: true },
    });
  }

  /** Records one attempt and the state it leads to, together. */
  async finishAttempt(
    id: string,
    attempt: AttemptRecord,
    status: AiLogStatus,
    lastError: string | null,
    nextAttemptAt?: Date,
  ): Promise<void> {
    const latencyMs = attempt.finishedAt.getTime() - attempt.startedAt.getTime();
    await this.prisma.$transaction([
      this.prisma.uploadAttempt.create({ data: { ...attempt, logId: id, latencyMs } }),
      this.prisma.aiLog.update({
        where: { id },
        data: {
          status,
          lastError,
          claimedUntil: null,
          nextAttemptAt,
          uploadedAt: status === AiLogStatus.uploaded ? attempt.finishedAt : undefined,
        },
      }),
    ]);
  }
}
