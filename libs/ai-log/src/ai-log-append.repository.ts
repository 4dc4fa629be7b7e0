import { Injectable } from '@nestjs/common';
import { type CanonicalLogParts, chainHash, GENESIS_HASH, joinCanonicalLog, type ModelCallRef } from '#libs/audit-chain';
import { type AiLog, type ColumnOf, SqlPool } from '#libs/database';
import type { PoolClient } from 'pg';

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
  /** The model calls the log names, with their links' hashes (in its canonical form); [] for none. */
  modelCalls: ModelCallRef[];
}

/** Each account's chain head: seq and hash of its last log. */
export type Heads = Map<string, { seq: bigint; hash: string }>;

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
  model_call_ids: 'uuid[]',
  seq: 'bigint',
  prev_hash: 'text',
  hash: 'text',
} as const satisfies Partial<Record<ColumnOf<AiLog>, string>>;
/** The columns set to the commit time. */
const TIME_COLUMNS = ['received_at', 'next_attempt_at', 'updated_at'] as const satisfies readonly ColumnOf<AiLog>[];

/** A row of the document, but for input and output, which are spliced in as JSON (insertLogs). */
type DocumentRow = Record<Exclude<keyof typeof DOCUMENT_COLUMNS, 'input' | 'output' | 'model_call_ids'>, string | null> & { model_call_ids: string[] };

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
 * The group commit's statements (AiLogAppender): ai_logs and audit_heads written on the small pg pool, since Prisma's
 * per-statement cost showed on this path. The appender holds the transaction; each method runs in it.
 */
@Injectable()
export class AiLogAppendRepository {
  constructor(private readonly sql: SqlPool) {}

  /** Runs `work` in one transaction on one connection of the pool. */
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /**
   * Locks the accounts' chain heads in account order, so that two processes never wait on each other in a cycle; an
   * account's first log creates its head first.
   */
  async lockHeads(client: PoolClient, accounts: string[]): Promise<Heads> {
    let heads = await this.selectHeads(client, accounts);
    if (heads.length < accounts.length) {
      await client.query(`INSERT INTO audit_heads (account_id, seq, hash) SELECT a, 0, $2 FROM unnest($1::text[]) AS a ON CONFLICT (account_id) DO NOTHING`, [
        accounts,
        GENESIS_HASH,
      ]);
      heads = await this.selectHeads(client, accounts);
    }
    return new Map(heads.map((h) => [h.account_id, { seq: BigInt(h.seq), hash: h.hash }]));
  }

  private async selectHeads(client: PoolClient, accounts: string[]): Promise<Array<{ account_id: string; seq: string; hash: string }>> {
    const { rows } = await client.query<{ account_id: string; seq: string; hash: string }>(
      'SELECT account_id, seq::text AS seq, hash FROM audit_heads WHERE account_id = ANY($1::text[]) ORDER BY account_id FOR UPDATE',
      [accounts],
    );
    return rows;
  }

  /** Numbers and hashes the logs after their accounts' heads, inserts them and moves the heads: one statement. */
  async insert(client: PoolClient, logs: LogToAppend[], head: Heads, receivedAt: Date): Promise<void> {
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
        model_call_ids: log.modelCalls.map((call) => call.id),
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
}
