import { Injectable } from '@nestjs/common';
import { type AiLog, AiLogStatus, PrismaService, type UploadAttempt } from '#libs/database';

export interface NewAiLog {
  id: string;
  accountId: string;
  agentKeyId: string;
  orderId?: string;
  stage: string;
  model: string;
  /** JSON text, lossless. */
  input: string;
  output: string;
  explanation: string;
}

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

/** The AI-log tables. The database is the source of truth for a log's state; the queue only wakes the worker. */
@Injectable()
export class AiLogRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Commits the logs in one statement; they are durable when this resolves. Returns the time they were received. */
  async insertMany(logs: NewAiLog[]): Promise<Date> {
    const receivedAt = new Date();
    await this.prisma.aiLog.createMany({
      data: logs.map((log) => ({
        ...log,
        orderId: log.orderId === undefined ? null : BigInt(log.orderId),
        receivedAt,
        nextAttemptAt: receivedAt,
      })),
    });
    return receivedAt;
  }

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

  /** Logs the relay should (re)queue: due and waiting, or holding a lapsed claim. In id (time) order, after `after`. */
  async findDue(dueBefore: Date, limit: number, after?: string): Promise<Array<{ id: string; attemptCount: number }>> {
    return this.prisma.aiLog.findMany({
      where: {
        id: after ? { gt: after } : undefined,
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
