import { Injectable } from '@nestjs/common';
import { canonicalReceiptPieces, GENESIS_HASH, storableText } from '#libs/audit-chain';
import { type AiLog, AiLogStatus, type Column, likeLiteral, Prisma, PrismaService, type UploadAttempt } from '#libs/database';

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

/** What a drainer's claim found: the log it now sends, if one was due, and whether the account's uploads are paused. */
export interface Claim {
  log: AiLog | null;
  paused: boolean;
}

/** A waiting log's place in its account's due order (next_attempt_at, then id): where a drainer's last claim was. */
export interface DuePosition {
  nextAttemptAt: Date;
  id: string;
}

/** A failed log an admin sent back to the queue. */
export interface RequeuedLog {
  id: string;
  accountId: string;
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

/**
 * What claimNext returns of the claimed row `l`: every field of AiLog, read from its column (status as text) and named
 * as the field, so that the row is an AiLog. A field the model gains, loses or renames fails to compile here. Made once,
 * at load.
 */
const CLAIMED_LOG: { [F in keyof AiLog]: `l.${Column<F>}${'' | '::text'}` } = {
  id: 'l.id',
  accountId: 'l.account_id',
  agentKeyId: 'l.agent_key_id',
  orderId: 'l.order_id',
  stage: 'l.stage',
  model: 'l.model',
  input: 'l.input',
  output: 'l.output',
  explanation: 'l.explanation',
  status: 'l.status::text',
  attemptCount: 'l.attempt_count',
  lastError: 'l.last_error',
  nextAttemptAt: 'l.next_attempt_at',
  claimedUntil: 'l.claimed_until',
  receivedAt: 'l.received_at',
  uploadedAt: 'l.uploaded_at',
  retriedAt: 'l.retried_at',
  updatedAt: 'l.updated_at',
  seq: 'l.seq',
  prevHash: 'l.prev_hash',
  hash: 'l.hash',
  modelCallIds: 'l.model_call_ids',
};
const RETURNING_CLAIMED_LOG = Prisma.raw(
  Object.entries(CLAIMED_LOG)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', '),
);

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

  /** The account's AI logs whose orderId is one of `ids`, oldest first, with their upload attempts (an order's evidence). */
  async logsNaming(accountId: string, ids: readonly string[]): Promise<AiLogWithAttempts[]> {
    return this.prisma.aiLog.findMany({
      where: { accountId, orderId: { in: ids.map((id) => BigInt(id)) } },
      include: { attempts: { orderBy: { startedAt: 'asc' } } },
      orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    });
  }

  /**
   * Claims the account's longest-due log for sending (`uploading` for a lease of `claimMs`, which UploadLeases renews
   * while the upload is in flight; one more attempt), unless an admin has paused the account. The drainer claims a log only when the weight to send it is in hand and the
   * request goes out right after: a claim is an attempt under way, so a claim that lapses (its worker died) is an
   * attempt whose outcome is unknown (recoverLapsedClaims). SKIP LOCKED: drainers claiming at once get different logs.
   * `after` starts the index scan past the drainer's last claim: the entries before it are mostly dead (logs claimed
   * since the last VACUUM), and walking them made every claim cost the uploads since then.
   */
  async claimNext(accountId: string, claimMs: number, after?: DuePosition): Promise<Claim> {
    const now = new Date();
    const past = after ? Prisma.sql`AND (next_attempt_at, id) > (${after.nextAttemptAt}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
    const [row] = await this.prisma.$queryRaw<Array<Partial<AiLog> & { paused: boolean | null }>>`
      WITH account AS (SELECT uploads_paused_at IS NOT NULL AS paused FROM accounts WHERE id = ${accountId}),
      target AS (
        SELECT id FROM ai_logs
        WHERE account_id = ${accountId} AND status IN ('queued', 'retrying') AND next_attempt_at <= ${now} ${past}
          AND NOT coalesce((SELECT paused FROM account), false)
        ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
      ),
      claimed AS (
        UPDATE ai_logs l
        SET status = 'uploading', attempt_count = l.attempt_count + 1, claimed_until = ${leaseEnd(claimMs)}, updated_at = ${now}
        FROM target t WHERE l.id = t.id
        RETURNING ${RETURNING_CLAIMED_LOG}
      )
      SELECT (SELECT paused FROM account) AS paused, claimed.* FROM (SELECT 1) AS one LEFT JOIN claimed ON true`;
    const { paused, ...log } = row;
    return { paused: paused === true, log: log.id ? (log as AiLog) : null };
  }

  /**
   * Extends the claims still held by these attempts (log id → the attempt number its claim made) to `claimMs` from
   * now; a log claimed again since (its claim lapsed) is left to the newer claim.
   */
  async renewClaims(claims: ReadonlyMap<string, number>, claimMs: number): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE ai_logs l SET claimed_until = ${leaseEnd(claimMs)}
      FROM unnest(${[...claims.keys()]}::uuid[], ${[...claims.values()]}::int[]) AS c(id, attempt)
      WHERE l.id = c.id AND l.status = 'uploading' AND l.attempt_count = c.attempt`;
  }

  /** When the account's next waiting log is due (past or future); null when it has none waiting. */
  async nextDueAt(accountId: string): Promise<Date | null> {
    const [row] = await this.prisma.$queryRaw<Array<{ at: Date | null }>>`
      SELECT min(next_attempt_at) AS at FROM ai_logs WHERE account_id = ${accountId} AND status IN ('queued', 'retrying')`;
    return row.at;
  }

  /**
   * Accounts, not paused, with a log due at or before `dueBefore`: the first entry of each account's due index,
   * however long its backlog or history. Asked as "the earliest waiting log" rather than "any log due", which
   * PostgreSQL, with statistics that say half the logs are due, answered by walking the account's logs by time
   * through every uploaded one.
   */
  async accountsWithDueLogs(dueBefore: Date): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT a.id FROM accounts a CROSS JOIN LATERAL (
        SELECT l.next_attempt_at FROM ai_logs l WHERE l.account_id = a.id AND l.status IN ('queued', 'retrying')
        ORDER BY l.next_attempt_at LIMIT 1) first
      WHERE a.uploads_paused_at IS NULL AND first.next_attempt_at <= ${dueBefore}`;
    return rows.map((row) => row.id);
  }

  /**
   * Claims that lapsed (their worker died mid-upload) end as an `uncertain` attempt, since the request may have
   * reached the exchange, and their logs are due again now. Each is recorded as a link of its account's receipt chain,
   * like any attempt (when it was sent is not known: its time is the recovery's); a claim another relay ended first is
   * left alone. `target` is where uploads go (the simulator in sandbox mode). Returns the accounts of those logs.
   */
  async recoverLapsedClaims(target: AttemptRecord['target'], maxLogs = 500): Promise<string[]> {
    const now = new Date();
    const lapsed = await this.prisma.$queryRaw<Array<{ id: string; accountId: string }>>`
      SELECT id::text, account_id AS "accountId" FROM ai_logs WHERE status = 'uploading' AND claimed_until < statement_timestamp() LIMIT ${maxLogs}`;
    const accounts = new Set<string>();
    for (const { id, accountId } of lapsed) {
      const attempt: AttemptRecord = {
        target,
        url: '',
        startedAt: now,
        finishedAt: now,
        outcome: 'uncertain',
        exchangeMessage: 'the worker stopped before recording the outcome of this attempt',
      };
      const recorded = await this.recordReceipt(id, attempt, AiLogStatus.retrying, {
        guard: Prisma.sql`l.status = 'uploading' AND l.claimed_until < statement_timestamp()`,
        then: Prisma.sql`UPDATE ai_logs SET status = 'retrying', claimed_until = NULL, next_attempt_at = ${now}, updated_at = ${now}
          FROM link WHERE ai_logs.id = ${id}::uuid`,
      });
      if (recorded) accounts.add(accountId);
    }
    return [...accounts];
  }

  /**
   * Hands back a claimed log whose request was never sent (something failed before it could be): due again at
   * `nextAttemptAt`, and the attempt its claim counted is taken back.
   */
  async release(id: string, nextAttemptAt: Date): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE ai_logs SET status = CASE WHEN attempt_count > 1 THEN 'retrying'::ai_log_status ELSE 'queued'::ai_log_status END,
        attempt_count = attempt_count - 1, claimed_until = NULL, next_attempt_at = ${nextAttemptAt}, updated_at = ${new Date()}
      WHERE id = ${id}::uuid AND status = 'uploading'`;
  }

  /**
   * An admin retry: the failed logs matching the filter go back to `queued`, due now; returns them, so that their
   * accounts are woken. attempt_count keeps counting every attempt the log had.
   */
  async requeueFailed(filter: FailedLogFilter): Promise<RequeuedLog[]> {
    const { id, accountId, receivedFrom, receivedBefore, errorContains } = filter;
    return this.prisma.aiLog.updateManyAndReturn({
      where: {
        status: AiLogStatus.failed,
        id,
        accountId,
        receivedAt: { gte: receivedFrom, lt: receivedBefore },
        lastError: errorContains === undefined ? undefined : { contains: likeLiteral(errorContains), mode: 'insensitive' },
      },
      data: { status: AiLogStatus.queued, nextAttemptAt: new Date(), retriedAt: new Date(), claimedUntil: null },
      select: { id: true, accountId: true },
    });
  }

  /**
   * When an account's uploads resume: its logs waiting out a retry's backoff are due now (the others were due all
   * along); says how many. Only those rows change, found from the present on in the due index: a resume costs the
   * retries in backoff, never the backlog.
   */
  async retriesDueNow(accountId: string): Promise<number> {
    const now = new Date();
    return this.prisma.$executeRaw`
      UPDATE ai_logs SET next_attempt_at = ${now}, updated_at = ${now}
      WHERE account_id = ${accountId} AND status IN ('queued', 'retrying') AND next_attempt_at > ${now}`;
  }

  /**
   * Records one attempt and the state it leads to, together, in one statement; the attempt becomes the next link of its
   * account's receipt chain (docs/audit.md), so that neither can be changed later without trace. `claimedAttempt` is
   * the attempt number the sender's claim made: if that claim lapsed and the log was claimed again meanwhile (a worker
   * that stalled past UPLOAD_CLAIM_MS), the attempt is still recorded, with the state the log is in, and the state
   * is left to the newer claim. Only a success always sets it: the log is at the exchange.
   */
  async finishAttempt(
    id: string,
    claimedAttempt: number,
    attempt: AttemptRecord,
    status: AiLogStatus,
    lastError: string | null,
    nextAttemptAt?: Date,
  ): Promise<void> {
    const uploadedAt = status === AiLogStatus.uploaded ? attempt.finishedAt : null;
    const recorded = await this.recordReceipt(id, attempt, status, {
      guard: status === AiLogStatus.uploaded ? undefined : Prisma.sql`l.status = 'uploading' AND l.attempt_count = ${claimedAttempt}`,
      then: Prisma.sql`
        UPDATE ai_logs SET status = ${status}::ai_log_status, last_error = ${lastError}, claimed_until = NULL,
          next_attempt_at = coalesce(${nextAttemptAt ?? null}::timestamptz, next_attempt_at),
          uploaded_at = coalesce(${uploadedAt}::timestamptz, uploaded_at), updated_at = ${new Date()}
        FROM link WHERE ai_logs.id = ${id}::uuid`,
    });
    if (recorded) return;
    const [log] = await this.prisma.$queryRaw<Array<{ status: AiLogStatus }>>`SELECT status::text AS status FROM ai_logs WHERE id = ${id}::uuid`;
    await this.recordReceipt(id, attempt, log.status);
  }

  /**
   * Inserts an attempt as the next link of its account's receipt chain, and runs `then` (which may read the CTE `link`)
   * in the same statement: one round trip. The statement's first step locks the chain's head row, which its commit
   * releases: attempts of one account queue for one statement each, never across a round trip, and ingest's
   * `audit_heads` is not touched. The link's hash is SHA-256 of the head's hash and the canonical receipt, whose text
   * libs/audit-chain writes around the fields PostgreSQL puts in (the log's account and link, the next seq; to_json
   * escapes an account id, a hex hash, as JSON.stringify does). An account's first attempt finds no head row: it is
   * made, and the statement runs again. The log's row is locked with the head (every call locks the two in the same
   * order), so that `guard`, a condition on the log `l`, is judged on its latest state: when it does not hold,
   * nothing is recorded and this returns false.
   */
  private async recordReceipt(
    id: string,
    attempt: AttemptRecord,
    status: AiLogStatus,
    { guard, then }: { guard?: Prisma.Sql; then?: Prisma.Sql } = {},
  ): Promise<boolean> {
    const receipt = {
      logId: id,
      target: attempt.target,
      url: storableText(attempt.url),
      startedAt: attempt.startedAt.toISOString(),
      finishedAt: attempt.finishedAt.toISOString(),
      outcome: attempt.outcome,
      httpStatus: attempt.httpStatus ?? null,
      exchangeCode: nullableText(attempt.exchangeCode),
      exchangeMessage: nullableText(attempt.exchangeMessage),
      status,
    };
    const [accountIs, logHashIs, logSeqIs, seqIs, end] = canonicalReceiptPieces(receipt);
    const latencyMs = attempt.finishedAt.getTime() - attempt.startedAt.getTime();
    for (let tries = 0; ; tries++) {
      const linked = await this.prisma.$queryRaw<Array<{ seq: string }>>`
        WITH head AS (
          SELECT h.account_id, h.seq, h.hash, l.seq AS log_seq, l.hash AS log_hash
          FROM ai_logs l JOIN audit_receipt_heads h ON h.account_id = l.account_id
          WHERE l.id = ${id}::uuid ${guard ? Prisma.sql`AND (${guard})` : Prisma.empty} FOR UPDATE OF h, l
        ), link AS (
          SELECT account_id, seq + 1 AS seq, hash AS prev_hash, encode(sha256(convert_to(hash || ${accountIs} || to_json(account_id)::text
            || ${logHashIs} || coalesce(to_json(log_hash)::text, 'null') || ${logSeqIs} || coalesce(log_seq::text, 'null') || ${seqIs} || (seq + 1)::text || ${end},
            'UTF8')), 'hex') AS hash
          FROM head
        ), recorded AS (
          INSERT INTO upload_attempts (log_id, target, url, started_at, finished_at, latency_ms, outcome, http_status, exchange_code, exchange_message,
                                       account_id, receipt_seq, prev_hash, hash, log_status)
          SELECT ${id}::uuid, ${receipt.target}, ${receipt.url}, ${attempt.startedAt}, ${attempt.finishedAt}, ${latencyMs}, ${attempt.outcome},
                 ${receipt.httpStatus}::int, ${receipt.exchangeCode}, ${receipt.exchangeMessage}, account_id, seq, prev_hash, hash, ${status}::ai_log_status
          FROM link
        ), moved AS (
          UPDATE audit_receipt_heads h SET seq = link.seq, hash = link.hash, updated_at = ${attempt.finishedAt} FROM link WHERE h.account_id = link.account_id
        )${then ? Prisma.sql`, state AS (${then})` : Prisma.empty}
        SELECT seq::text AS seq FROM link`;
      if (linked.length > 0) return true;
      const [found] = await this.prisma.$queryRaw<Array<{ head: boolean }>>`
        SELECT EXISTS (SELECT 1 FROM audit_receipt_heads h WHERE h.account_id = l.account_id) AS head FROM ai_logs l WHERE l.id = ${id}::uuid`;
      if (!found) throw new Error(`no AI log ${id} to record an upload attempt for`);
      // A head found now may have been made by another first attempt since the statement ran: only a statement that
      // ran with the head in place says that the guard does not hold.
      if (found.head) {
        if (tries > 0) return false;
        continue;
      }
      if (tries > 0) throw new Error(`the receipt chain of log ${id}'s account has no head`);
      await this.prisma.$executeRaw`
        INSERT INTO audit_receipt_heads (account_id, seq, hash) SELECT account_id, 0, ${GENESIS_HASH} FROM ai_logs WHERE id = ${id}::uuid
        ON CONFLICT (account_id) DO NOTHING`;
    }
  }
}

/** The end of a claim's lease: on the database's clock, which every process reads alike, however far theirs drift. */
const leaseEnd = (claimMs: number) => Prisma.sql`statement_timestamp() + ${claimMs}::int * interval '1 millisecond'`;

function nullableText(text: string | undefined): string | null {
  return text === undefined ? null : storableText(text);
}
