import { Injectable } from '@nestjs/common';
import { type CanonicalLogParts, chainHash, GENESIS_HASH, joinCanonicalLog } from '#libs/audit-chain';
import { crashHere, GatewayConfig } from '#libs/config';
import { type AiLog, type ColumnOf, SqlPool } from '#libs/database';
import { type IdempotencyClaim, IdempotencyKeyTakenError, IdempotencyRepository } from '#libs/idempotency';
import type { PoolClient } from 'pg';
import { GroupCommit } from './group-commit.js';
import { isDataException, LogNotStorableException, tiedToItsData } from './log-not-storable.exception.js';

/**
 * A validated log ready to be stored: its input and output as the JSON text to upload, and its canonical form for the
 * chain hash but for `receivedAt` and `seq` (made before the chain's lock is taken).
 */
export interface LogToAppend {
  id: string;
  accountId: string;
  agentKeyId: string;
  orderId: string | null;
  stage: string;
  model: string;
  input: string;
  output: string;
  canonical: CanonicalLogParts;
  explanation: string;
}

/** An Idempotency-Key to record with a request's logs, and its answer, made once the commit time is known. */
export interface KeyToRecord {
  claim: IdempotencyClaim;
  answer(receivedAt: Date): string;
}

/** One request's logs, and its Idempotency-Key when it has one. */
interface AppendRequest {
  logs: LogToAppend[];
  key?: KeyToRecord;
}

/** When the request's logs were committed, or `taken`: another request recorded its key first, and nothing was. */
type AppendOutcome = Date | 'taken';

/** Logs per transaction at most; concurrent requests beyond it wait for the next one. */
const MAX_BATCH = 1_000;
/**
 * Transactions in flight at once. The second waits in PostgreSQL for the first's head lock, but its BEGIN and lock
 * request are already there when the first commits, instead of starting then (measured with 50 connections: p99 of
 * single-log ingest about 40 ms with one, about 20 ms with two; three did no better).
 */
const MAX_IN_FLIGHT = 2;

/**
 * Appends accepted logs to `ai_logs` and to their account's audit hash chain, in one transaction per group of
 * concurrent requests (group commit). The chain stays one unbroken line across processes: each transaction locks the
 * accounts' `audit_heads` rows (in account order, so that two processes never deadlock), numbers and hashes its logs
 * after the head it found, and moves the head. A request's Idempotency-Key and answer are recorded in the same
 * transaction. A group that PostgreSQL refuses for its data is written again in halves until the request at fault
 * fails alone (GroupCommit's `isolate`), which then gets a 400. Durable when the promise resolves.
 */
@Injectable()
export class AiLogAppender {
  private readonly commits = new GroupCommit<AppendRequest, AppendOutcome>((requests) => this.write(requests), MAX_BATCH, MAX_IN_FLIGHT, {
    weigh: (request) => request.logs.length,
    isolate: tiedToItsData,
  });
  private readonly crashBeforeCommit: boolean;
  private readonly crashAfterCommit: boolean;

  constructor(
    private readonly sql: SqlPool,
    private readonly keys: IdempotencyRepository,
    config: GatewayConfig,
  ) {
    this.crashBeforeCommit = config.failpoints.has('before-commit');
    this.crashAfterCommit = config.failpoints.has('after-commit');
  }

  /**
   * Commits the logs (and the key) and resolves with their `receivedAt`. Throws IdempotencyKeyTakenError when another
   * request recorded the key first (nothing is stored), LogNotStorableException when PostgreSQL refused the logs' data.
   */
  async append(logs: LogToAppend[], key?: KeyToRecord): Promise<Date> {
    let outcome: AppendOutcome;
    try {
      [outcome] = await this.commits.submit([{ logs, key }]);
    } catch (error) {
      throw isDataException(error) ? new LogNotStorableException(error) : error;
    }
    if (outcome === 'taken') throw new IdempotencyKeyTakenError();
    return outcome;
  }

  /**
   * Four round trips per group (five when a request has an Idempotency-Key): BEGIN, lock the heads, record the keys,
   * insert the logs and move the heads, COMMIT.
   */
  private async write(requests: AppendRequest[]): Promise<AppendOutcome[]> {
    const outcomes = await this.sql.transaction(async (client) => {
      const receivedAt = new Date();
      const accounts = [...new Set(requests.flatMap((r) => r.logs.map((log) => log.accountId)))].sort();
      const head = await lockHeads(client, accounts);
      const taken = await this.recordKeys(client, requests, receivedAt);
      const logs = requests.filter((_, i) => !taken[i]).flatMap((r) => r.logs);
      if (logs.length > 0) await insertLogs(client, logs, head, receivedAt);
      if (this.crashBeforeCommit) crashHere();
      return requests.map((_, i): AppendOutcome => (taken[i] ? 'taken' : receivedAt));
    });
    if (this.crashAfterCommit) crashHere();
    return outcomes;
  }

  /** Records the requests' keys; true for each request whose key another request recorded first. */
  private async recordKeys(client: PoolClient, requests: AppendRequest[], receivedAt: Date): Promise<boolean[]> {
    const keyed = requests.filter((r) => r.key);
    if (keyed.length === 0) return requests.map(() => false);
    const recorded = await this.keys.recordWithin(
      client,
      keyed.map((r) => ({ ...r.key!.claim, body: r.key!.answer(receivedAt) })),
    );
    const lost = new Set(keyed.filter((_, i) => !recorded[i]));
    return requests.map((r) => lost.has(r));
  }
}

type Heads = Map<string, { seq: bigint; hash: string }>;

/**
 * The columns an insert takes from its rows' JSON document, each with the type json_to_recordset reads it as; typed
 * against the AiLog model, so that a column renamed or removed in schema.prisma fails to compile here.
 */
const DOCUMENT_COLUMNS = {
  id: 'uuid',
  account_id: 'text',
  agent_key_id: 'text',
  order_id: 'bigint',
  stage: 'text',
  model: 'text',
  input: 'json',
  output: 'json',
  explanation: 'text',
  seq: 'bigint',
  prev_hash: 'text',
  hash: 'text',
} as const satisfies Partial<Record<ColumnOf<AiLog>, string>>;
/** The columns set to the commit time. */
const TIME_COLUMNS = ['received_at', 'next_attempt_at', 'updated_at'] as const satisfies readonly ColumnOf<AiLog>[];

/** A row of the document, but for input and output, which are spliced in as JSON (insertLogs). */
type DocumentRow = Record<Exclude<keyof typeof DOCUMENT_COLUMNS, 'input' | 'output'>, string | null>;

const documented = Object.entries(DOCUMENT_COLUMNS);
/**
 * Inserts the document's rows ($1) received at $2 and moves the heads ($3): made once, at load, from the typed lists
 * above. input and output are read as json and stored as its text.
 */
const INSERT_LOGS = `WITH inserted AS (
    INSERT INTO ai_logs (${[...documented.map(([column]) => column), ...TIME_COLUMNS].join(', ')})
    SELECT ${documented.map(([column, type]) => (type === 'json' ? `${column}::text` : column)).join(', ')}, ${TIME_COLUMNS.map(() => '$2').join(', ')}
    FROM json_to_recordset($1::json) AS v(${documented.map(([column, type]) => `${column} ${type}`).join(', ')})
  )
  UPDATE audit_heads SET seq = h.seq, hash = h.hash, updated_at = $2
  FROM json_to_recordset($3::json) AS h(account_id text, seq bigint, hash text)
  WHERE audit_heads.account_id = h.account_id`;

/**
 * Locks the accounts' chain heads in account order, so that two processes never wait on each other in a cycle; an
 * account's first log creates its head first.
 */
async function lockHeads(client: PoolClient, accounts: string[]): Promise<Heads> {
  let heads = await selectHeads(client, accounts);
  if (heads.length < accounts.length) {
    await client.query(`INSERT INTO audit_heads (account_id, seq, hash) SELECT a, 0, $2 FROM unnest($1::text[]) AS a ON CONFLICT (account_id) DO NOTHING`, [
      accounts,
      GENESIS_HASH,
    ]);
    heads = await selectHeads(client, accounts);
  }
  return new Map(heads.map((h) => [h.account_id, { seq: BigInt(h.seq), hash: h.hash }]));
}

async function selectHeads(client: PoolClient, accounts: string[]): Promise<Array<{ account_id: string; seq: string; hash: string }>> {
  const { rows } = await client.query<{ account_id: string; seq: string; hash: string }>(
    'SELECT account_id, seq::text AS seq, hash FROM audit_heads WHERE account_id = ANY($1::text[]) ORDER BY account_id FOR UPDATE',
    [accounts],
  );
  return rows;
}

/** Numbers and hashes the logs after their accounts' heads, inserts them and moves the heads: one statement. */
async function insertLogs(client: PoolClient, logs: LogToAppend[], head: Heads, receivedAt: Date): Promise<void> {
  const receivedIso = receivedAt.toISOString();
  // The rows travel as one JSON document (pg would escape array elements in JS), input and output in it as JSON
  // rather than as strings, so that neither side escapes them again; PostgreSQL's json type keeps their text.
  const rows = logs.map((log, i) => {
    const previous = head.get(log.accountId)!;
    const next = previous.seq + 1n;
    const seq = next.toString();
    const hash = chainHash(previous.hash, joinCanonicalLog(log.canonical, receivedIso, seq));
    head.set(log.accountId, { seq: next, hash });
    const row: DocumentRow = {
      id: log.id,
      account_id: log.accountId,
      agent_key_id: log.agentKeyId,
      order_id: log.orderId,
      stage: log.stage,
      model: log.model,
      explanation: log.explanation,
      seq,
      prev_hash: previous.hash,
      hash,
    };
    const fields = JSON.stringify(row);
    // The document's brackets go on its first and last rows, so that join makes it as one flat string (pg would
    // otherwise flatten '[' + joined + ']' once more, a copy of the whole group).
    return `${i === 0 ? '[' : ''}${fields.slice(0, -1)},"input":${log.input},"output":${log.output}}${i === logs.length - 1 ? ']' : ''}`;
  });
  const movedHeads = [...head.entries()].map(([account_id, h]) => ({ account_id, seq: h.seq.toString(), hash: h.hash }));
  await client.query(INSERT_LOGS, [rows.join(','), receivedAt, JSON.stringify(movedHeads)]);
}
