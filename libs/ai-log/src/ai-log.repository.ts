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

/** A claimed log, and whether its account's uploads are paused (then it is handed back unsent). */
export interface ClaimedLog {
  log: AiLog;
  paused: boolean;
}

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
   * Marks a due log as being uploaded by the caller until `claimMs` from now, and says whether an admin has paused its
   * account. A log whose claim lapsed (its worker died mid-upload) can be claimed again; since that upload may have
   * reached the exchange, it is recorded as an `uncertain` attempt first. Returns null when the log is not claimable
   * (done, or held by a live claim). One statement: two workers claiming at once wait on the row lock, and the second
   * finds the claim taken.
   */
  async claim(id: string, claimMs: number): Promise<ClaimedLog | null> {
    const now = new Date();
    const rows = await this.prisma.$queryRaw<Array<AiLog & { lapsed: boolean; paused: boolean }>>`
      WITH target AS (
        SELECT id, status = 'uploading' AS lapsed FROM ai_logs
        WHERE id = ${id}::uuid AND (status IN ('queued', 'retrying') OR (status = 'uploading' AND claimed_until < ${now}))
        FOR UPDATE
      )
      UPDATE ai_logs l
      SET status = 'uploading', attempt_count = l.attempt_count + 1, claimed_until = ${new Date(now.getTime() + claimMs)}, updated_at = ${now}
      FROM target t WHERE l.id = t.id
      RETURNING l.id, l.account_id AS "accountId", l.agent_key_id AS "agentKeyId", l.order_id AS "orderId", l.stage, l.model,
        l.input, l.output, l.explanation, l.status::text AS status, l.attempt_count AS "attemptCount", l.last_error AS "lastError",
        l.next_attempt_at AS "nextAttemptAt", l.claimed_until AS "claimedUntil", l.received_at AS "receivedAt",
        l.uploaded_at AS "uploadedAt", l.retried_at AS "retriedAt", l.updated_at AS "updatedAt", l.seq,
        l.prev_hash AS "prevHash", l.hash, t.lapsed,
        EXISTS (SELECT 1 FROM accounts a WHERE a.id = l.account_id AND a.uploads_paused_at IS NOT NULL) AS paused`;
    if (rows.length === 0) return null;
    const { lapsed, paused, ...log } = rows[0];
    if (lapsed) {
      await this.prisma.uploadAttempt.create({
        data: {
          logId: id, target: 'exchange', url: '', startedAt: now, finishedAt: now, latencyMs: 0, outcome: 'uncertain',
          exchangeMessage: 'the worker stopped before recording the outcome of this attempt',
        },
      });
    }
    return { log, paused };
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

  /** Records one attempt and the state it leads to, together, in one statement. */
  async finishAttempt(
    id: string,
    attempt: AttemptRecord,
    status: AiLogStatus,
    lastError: string | null,
    nextAttemptAt?: Date,
  ): Promise<void> {
    const latencyMs = attempt.finishedAt.getTime() - attempt.startedAt.getTime();
    const uploadedAt = status === AiLogStatus.uploaded ? attempt.finishedAt : null;
    await this.prisma.$executeRaw`
      WITH attempt AS (
        INSERT INTO upload_attempts (log_id, target, url, started_at, finished_at, latency_ms, outcome, http_status, exchange_code, exchange_message)
        VALUES (${id}::uuid, ${attempt.target}, ${attempt.url}, ${attempt.startedAt}, ${attempt.finishedAt}, ${latencyMs}, ${attempt.outcome},
                ${attempt.httpStatus ?? null}::int, ${attempt.exchangeCode ?? null}, ${attempt.exchangeMessage ?? null})
      )
      UPDATE ai_logs SET status = ${status}::ai_log_status, last_error = ${lastError}, claimed_until = NULL,
        next_attempt_at = coalesce(${nextAttemptAt ?? null}::timestamptz, next_attempt_at),
        uploaded_at = coalesce(${uploadedAt}::timestamptz, uploaded_at), updated_at = ${new Date()}
      WHERE id = ${id}::uuid`;
  }
}
