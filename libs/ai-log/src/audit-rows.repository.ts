import { Injectable } from '@nestjs/common';
import { type AcceptedLog, GENESIS_HASH, type ModelCallRef, type UploadReceipt } from '#libs/audit-chain';
import { parseJson } from '#libs/common';
import { Prisma, PrismaService } from '#libs/database';
import { ModelCallDecisions } from '#libs/model-calls';

/** A link: its seq (decimal) and hash. */
export interface Link {
  seq: string;
  hash: string;
}

/**
 * Both chains' heads of an account, and the first and last log the table holds, read in one statement (one snapshot):
 * the head a row was appended with is always there beside it.
 */
export interface ChainHeads {
  logs: Link & { at: Date | null };
  receipts: Link;
  stored: { first: string | null; last: Link | null };
}

/** A stored log with its link, its status, and its last chained receipt (up to a bound, if one was given). */
export interface LogRow {
  id: string;
  account_id: string;
  agent_key_id: string;
  seq: string | null;
  prev_hash: string | null;
  hash: string | null;
  received_at: Date;
  order_id: string | null;
  stage: string;
  model: string;
  input: string;
  output: string;
  explanation: string;
  /**
   * The calls the log names with their links' hashes, as its canonical form holds them (null: none): read from
   * model_calls with the log, so that a call rewritten or deleted since makes the log's hash come out different.
   */
  model_calls: ModelCallRef[] | null;
  status: string;
  receipt_seq: string | null;
  receipt_status: string | null;
  receipt_at: Date | null;
  receipt_code: string | null;
}

/** A log as read, naming its calls by id. */
type StoredLogRow = Omit<LogRow, 'model_calls'> & { model_call_ids: string[] };

/** A stored upload attempt with its receipt-chain link, and its log's link. */
export interface ReceiptRow {
  seq: string;
  prev_hash: string;
  hash: string;
  account_id: string;
  log_id: string;
  log_seq: string | null;
  log_hash: string | null;
  target: string;
  url: string;
  started_at: Date;
  finished_at: Date;
  outcome: string;
  http_status: number | null;
  exchange_code: string | null;
  exchange_message: string | null;
  log_status: string;
}

/** What a chain stores, for the check's count: each part one descent or one range of an index, never the whole history. */
export interface ChainTally {
  /** Rows without a link (outside the chain). */
  unlinked: number;
  /** Rows with seq in the range asked for. */
  inRange: number;
  /** Whether seq 1 and the frontier's seq are stored. */
  hasFirst: boolean;
  hasFrontier: boolean;
  last: string | null;
}

/** PostgreSQL's largest bigint: no bound. */
const MAX_SEQ = 2n ** 63n - 1n;
/**
 * A page of logs stops after the log that takes its text (input, output, explanation) past this, so that the check and
 * the export hold at most 2 MiB of logs at once whatever their size (a log may be up to 1 MiB). 4 MiB left the worker
 * 7 MB higher (142 against 135 MB peak) and was no faster.
 */
const PAGE_BYTES = 1024 * 1024;
/** A log's text in bytes; octet_length reads a TOASTed value's size without fetching it. */
const LOG_BYTES = Prisma.raw('octet_length(l.input) + octet_length(l.output) + octet_length(l.explanation)');

const LOG_COLUMNS = Prisma.raw(`l.id::text, l.account_id, l.agent_key_id, l.seq::text AS seq, l.prev_hash, l.hash, l.received_at,
  l.order_id::text AS order_id, l.stage, l.model, l.input, l.output, l.explanation, l.model_call_ids::text[] AS model_call_ids, l.status::text AS status`);

/**
 * The audit trail's reads of both chains (ai_logs, upload_attempts and their heads), for libs/audit's export and check;
 * the calls' hashes come from their owner, libs/model-calls.
 */
@Injectable()
export class AuditRows {
  constructor(
    private readonly prisma: PrismaService,
    private readonly calls: ModelCallDecisions,
  ) {}

  async heads(accountId: string): Promise<ChainHeads> {
    const [row] = await this.prisma.$queryRaw<
      Array<Record<'seq' | 'hash' | 'receipt_seq' | 'receipt_hash' | 'first' | 'last_seq' | 'last_hash', string | null> & { at: Date | null }>
    >`
      SELECT h.seq::text AS seq, h.hash, h.updated_at AS at, r.seq::text AS receipt_seq, r.hash AS receipt_hash,
             (SELECT min(seq) FROM ai_logs WHERE account_id = a.account_id)::text AS first, last.seq::text AS last_seq, last.hash AS last_hash
      FROM (SELECT ${accountId}::text AS account_id) a
      LEFT JOIN audit_heads h ON h.account_id = a.account_id
      LEFT JOIN audit_receipt_heads r ON r.account_id = a.account_id
      LEFT JOIN LATERAL (SELECT seq, hash FROM ai_logs WHERE account_id = a.account_id AND seq IS NOT NULL ORDER BY seq DESC LIMIT 1) last ON true`;
    // An account without logs (or attempts) has the empty chain: seq 0 and the genesis hash.
    return {
      logs: { seq: row.seq ?? '0', hash: row.hash ?? GENESIS_HASH, at: row.at },
      receipts: { seq: row.receipt_seq ?? '0', hash: row.receipt_hash ?? GENESIS_HASH },
      stored: { first: row.first, last: row.last_seq === null ? null : { seq: row.last_seq, hash: row.last_hash ?? '' } },
    };
  }

  /** One log of the account by its id, with its link (receipt fields null): what a proof of it is made from. */
  async logById(accountId: string, id: string): Promise<LogRow | undefined> {
    const [row] = await this.withCalls(
      accountId,
      await this.prisma.$queryRaw<StoredLogRow[]>`
      SELECT ${LOG_COLUMNS}, NULL AS receipt_seq, NULL AS receipt_status, NULL AS receipt_at, NULL AS receipt_code
      FROM ai_logs l WHERE l.id = ${id}::uuid AND l.account_id = ${accountId}`,
    );
    return row;
  }

  /** The rows with the calls each names and their hashes, read from libs/model-calls in one query for the page. */
  private async withCalls(accountId: string, rows: StoredLogRow[]): Promise<LogRow[]> {
    const ids = [...new Set(rows.flatMap((row) => row.model_call_ids))];
    const hashes = ids.length > 0 ? await this.calls.linkHashes(accountId, ids) : new Map<string, string>();
    return rows.map(({ model_call_ids, ...row }) => {
      // A call gone from model_calls is left out, so that the log's hash comes out different.
      const calls = model_call_ids.flatMap((id) => (hashes.has(id) ? [{ id, hash: hashes.get(id)! }] : []));
      return { ...row, model_calls: calls.length > 0 ? calls : null };
    });
  }

  /** Every account that has a chain. */
  async accounts(): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ account_id: string }>>`
      SELECT account_id FROM audit_heads UNION SELECT account_id FROM audit_receipt_heads ORDER BY account_id`;
    return rows.map((r) => r.account_id);
  }

  /**
   * Linked logs with seq in (after, last], in chain order, each with its last chained receipt (only those up to
   * `receiptsUpTo`, when given): at most `limit` logs, and no more once their text passes PAGE_BYTES, so that a page of
   * 1 MiB logs is one or two logs and not a gigabyte. Each log's receipt is one descent of upload_attempts (log_id,
   * account_id, receipt_seq), every condition an index condition: O(log n) per log whatever the statistics say.
   */
  async logs(accountId: string, after: bigint, last: bigint, limit: number, receiptsUpTo = MAX_SEQ): Promise<LogRow[]> {
    return this.withCalls(
      accountId,
      await this.prisma.$queryRaw<StoredLogRow[]>`
      SELECT ${LOG_COLUMNS}, r.receipt_seq::text AS receipt_seq, r.log_status::text AS receipt_status, r.finished_at AS receipt_at, r.exchange_code AS receipt_code
      FROM (
        SELECT l.*, sum(${LOG_BYTES}) OVER (ORDER BY l.seq) - ${LOG_BYTES} AS bytes_before FROM ai_logs l
        WHERE l.account_id = ${accountId} AND l.seq > ${after} AND l.seq <= ${last} ORDER BY l.seq LIMIT ${limit}
      ) l LEFT JOIN LATERAL (
        SELECT receipt_seq, log_status, finished_at, exchange_code FROM upload_attempts a
        WHERE a.log_id = l.id AND a.account_id = l.account_id AND a.receipt_seq <= ${receiptsUpTo}
        ORDER BY a.receipt_seq DESC LIMIT 1) r ON true
      WHERE l.bytes_before < ${PAGE_BYTES} ORDER BY l.seq`,
    );
  }

  /**
   * Logs received in the window that have no link (inserted around ingest), in order of receipt after `after` (the
   * last one of the page before), bounded as `logs` is.
   */
  async unlinkedLogs(accountId: string, from: Date, to: Date, limit: number, after?: { receivedAt: Date; id: string }): Promise<LogRow[]> {
    const start = after ? Prisma.sql`(l.received_at, l.id) > (${after.receivedAt}, ${after.id}::uuid)` : Prisma.sql`l.received_at >= ${from}`;
    return this.withCalls(
      accountId,
      await this.prisma.$queryRaw<StoredLogRow[]>`
      SELECT ${LOG_COLUMNS}, NULL AS receipt_seq, NULL AS receipt_status, NULL AS receipt_at, NULL AS receipt_code
      FROM (
        SELECT l.*, sum(${LOG_BYTES}) OVER (ORDER BY l.received_at, l.id) - ${LOG_BYTES} AS bytes_before FROM ai_logs l
        WHERE l.account_id = ${accountId} AND l.seq IS NULL AND ${start} AND l.received_at >= ${from} AND l.received_at < ${to}
        ORDER BY l.received_at, l.id LIMIT ${limit}
      ) l
      WHERE l.bytes_before < ${PAGE_BYTES} ORDER BY l.received_at, l.id`,
    );
  }

  /** The lowest and highest seq of the logs received in the window, up to `upTo`; null when it has none. */
  async window(accountId: string, from: Date, to: Date, upTo: bigint): Promise<{ first: bigint; last: bigint } | null> {
    const [row] = await this.prisma.$queryRaw<Array<{ first: string | null; last: string | null }>>`
      SELECT min(seq)::text AS first, max(seq)::text AS last FROM ai_logs
      WHERE account_id = ${accountId} AND received_at >= ${from} AND received_at < ${to} AND seq <= ${upTo}`;
    return row.first === null ? null : { first: BigInt(row.first), last: BigInt(row.last!) };
  }

  /** The lowest receipt seq among the receipts of the logs with seq in (after, last]; null when they have none. */
  async firstReceiptOf(accountId: string, after: bigint, last: bigint): Promise<bigint | null> {
    const [row] = await this.prisma.$queryRaw<Array<{ first: string | null }>>`
      SELECT min(a.receipt_seq)::text AS first FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id
      WHERE l.account_id = ${accountId} AND l.seq > ${after} AND l.seq <= ${last} AND a.account_id = ${accountId}`;
    return row.first === null ? null : BigInt(row.first);
  }

  /**
   * Receipts with seq in (after, last], in chain order, each with its log's link: one primary-key lookup per receipt
   * (LIMIT 1 keeps the planner from making it a join that might scan every log).
   */
  async receipts(accountId: string, after: bigint, last: bigint, limit: number): Promise<ReceiptRow[]> {
    return this.prisma.$queryRaw<ReceiptRow[]>`
      SELECT a.receipt_seq::text AS seq, a.prev_hash, a.hash, a.account_id, a.log_id::text AS log_id, l.seq::text AS log_seq, l.hash AS log_hash,
             a.target, a.url, a.started_at, a.finished_at, a.outcome, a.http_status, a.exchange_code, a.exchange_message, a.log_status::text AS log_status
      FROM upload_attempts a CROSS JOIN LATERAL (SELECT seq, hash FROM ai_logs WHERE id = a.log_id LIMIT 1) l
      WHERE a.account_id = ${accountId} AND a.receipt_seq > ${after} AND a.receipt_seq <= ${last}
      ORDER BY a.receipt_seq LIMIT ${limit}`;
  }

  /**
   * The account's rows outside the chain, those with seq in (from, to], whether seq 1 and `frontier` are there, and its
   * last seq. Each is a descent or a range of the unique index (account_id, seq): a run counts what it asks for, not
   * every row of the history.
   */
  async tally(chain: 'logs' | 'receipts', accountId: string, { from, to, frontier }: { from: bigint; to: bigint; frontier: bigint }): Promise<ChainTally> {
    const [table, seq] = chainColumns(chain);
    const [row] = await this.prisma.$queryRaw<Array<{ unlinked: number; in_range: number; has_first: boolean; has_frontier: boolean; last: string | null }>>`
      SELECT (SELECT count(*) FROM ${table} WHERE account_id = ${accountId} AND ${seq} IS NULL)::int AS unlinked,
             (SELECT count(*) FROM ${table} WHERE account_id = ${accountId} AND ${seq} > ${from} AND ${seq} <= ${to})::int AS in_range,
             EXISTS (SELECT 1 FROM ${table} WHERE account_id = ${accountId} AND ${seq} = 1) AS has_first,
             EXISTS (SELECT 1 FROM ${table} WHERE account_id = ${accountId} AND ${seq} = ${frontier}) AS has_frontier,
             (SELECT max(${seq}) FROM ${table} WHERE account_id = ${accountId})::text AS last`;
    return { unlinked: row.unlinked, inRange: row.in_range, hasFirst: row.has_first, hasFrontier: row.has_frontier, last: row.last };
  }

  /** The first seq in (from, to] that has no row: where a tally came up short. */
  async firstMissing(chain: 'logs' | 'receipts', accountId: string, from: bigint, to: bigint): Promise<string> {
    const [table, seq] = chainColumns(chain);
    const [row] = await this.prisma.$queryRaw<Array<{ missing: string | null }>>`
      SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM ${table} WHERE account_id = ${accountId} AND ${seq} = ${from + 1n}) THEN ${(from + 1n).toString()} ELSE (
        SELECT (t.${seq} + 1)::text FROM ${table} t WHERE t.account_id = ${accountId} AND t.${seq} > ${from} AND t.${seq} < ${to}
          AND NOT EXISTS (SELECT 1 FROM ${table} n WHERE n.account_id = ${accountId} AND n.${seq} = t.${seq} + 1)
        ORDER BY t.${seq} LIMIT 1) END AS missing`;
    return row.missing ?? to.toString();
  }
}

const chainColumns = (chain: 'logs' | 'receipts') =>
  (chain === 'logs' ? ['ai_logs', 'seq'] : ['upload_attempts', 'receipt_seq']).map((name) => Prisma.raw(name));

/** A stored log as accepted: what its hash covers. */
export function acceptedLog(row: LogRow): AcceptedLog {
  return {
    accountId: row.account_id,
    seq: row.seq ?? '0',
    id: row.id,
    receivedAt: row.received_at.toISOString(),
    agentKeyId: row.agent_key_id,
    orderId: row.order_id,
    stage: row.stage,
    model: row.model,
    input: parseJson(row.input),
    output: parseJson(row.output),
    explanation: row.explanation,
    ...(row.model_calls && row.model_calls.length > 0 ? { modelCalls: row.model_calls } : {}),
  };
}

/** A stored upload attempt as recorded: what its receipt-chain hash covers. */
export function uploadReceipt(row: ReceiptRow): UploadReceipt {
  return {
    accountId: row.account_id,
    seq: row.seq,
    logId: row.log_id,
    logSeq: row.log_seq,
    logHash: row.log_hash,
    target: row.target,
    url: row.url,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at.toISOString(),
    outcome: row.outcome,
    httpStatus: row.http_status,
    exchangeCode: row.exchange_code,
    exchangeMessage: row.exchange_message,
    status: row.log_status,
  };
}
