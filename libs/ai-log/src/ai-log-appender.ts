import { Injectable } from '@nestjs/common';
import { type CanonicalLogParts, chainHash, GENESIS_HASH, joinCanonicalLog } from '#libs/audit-chain';
import { SqlPool } from '#libs/database';
import type { PoolClient } from 'pg';
import { GroupCommit } from './group-commit.js';

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

/** Where a log landed in its account's audit chain. */
export interface ChainReceipt {
  receivedAt: Date;
  seq: string;
  hash: string;
}

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
 * after the head it found, and moves the head. Durable when the promise resolves.
 */
@Injectable()
export class AiLogAppender {
  private readonly commits = new GroupCommit<LogToAppend, ChainReceipt>((logs) => this.write(logs), MAX_BATCH, MAX_IN_FLIGHT);

  constructor(private readonly sql: SqlPool) {}

  append(logs: LogToAppend[]): Promise<ChainReceipt[]> {
    return this.commits.submit(logs);
  }

  /** Four round trips per group: BEGIN, lock the heads, insert the logs and move the heads, COMMIT. */
  private write(logs: LogToAppend[]): Promise<ChainReceipt[]> {
    return this.sql.transaction(async (client) => {
      const receivedAt = new Date();
      const accounts = [...new Set(logs.map((log) => log.accountId))].sort();
      let heads = await lockHeads(client, accounts);
      if (heads.length < accounts.length) {
        // An account's first log: create its head, then lock it like the others.
        await client.query(
          `INSERT INTO audit_heads (account_id, seq, hash) SELECT a, 0, $2 FROM unnest($1::text[]) AS a ON CONFLICT (account_id) DO NOTHING`,
          [accounts, GENESIS_HASH],
        );
        heads = await lockHeads(client, accounts);
      }
      const head = new Map(heads.map((h) => [h.account_id, { seq: BigInt(h.seq), hash: h.hash }]));

      const receivedIso = receivedAt.toISOString();
      const receipts = logs.map((log) => {
        const previous = head.get(log.accountId)!;
        const next = previous.seq + 1n;
        const seq = next.toString();
        const hash = chainHash(previous.hash, joinCanonicalLog(log.canonical, receivedIso, seq));
        head.set(log.accountId, { seq: next, hash });
        return { receivedAt, seq, hash, prevHash: previous.hash };
      });

      // The rows travel as one JSON document (pg would escape array elements in JS), input and output in it as JSON
      // rather than as strings, so that neither side escapes them again; PostgreSQL's json type keeps their text.
      const rows = logs.map((log, i) => {
        // The document's brackets go on its first and last rows, so that join makes it as one flat string (pg would
        // otherwise flatten '[' + joined + ']' once more, a copy of the whole group).
        const { seq, prevHash, hash } = receipts[i];
        const fields = JSON.stringify({
          id: log.id, account_id: log.accountId, agent_key_id: log.agentKeyId, order_id: log.orderId, stage: log.stage,
          model: log.model, explanation: log.explanation, seq, prev_hash: prevHash, hash,
        });
        return `${i === 0 ? '[' : ''}${fields.slice(0, -1)},"input":${log.input},"output":${log.output}}${i === logs.length - 1 ? ']' : ''}`;
      });
      const movedHeads = [...head.entries()].map(([account_id, h]) => ({ account_id, seq: h.seq.toString(), hash: h.hash }));
      await client.query(
        `WITH inserted AS (
           INSERT INTO ai_logs (id, account_id, agent_key_id, order_id, stage, model, input, output, explanation,
                                received_at, next_attempt_at, updated_at, seq, prev_hash, hash)
           SELECT id, account_id, agent_key_id, order_id, stage, model, input::text, output::text, explanation, $2, $2, $2, seq, prev_hash, hash
           FROM json_to_recordset($1::json) AS v(id uuid, account_id text, agent_key_id text, order_id bigint, stage text,
                model text, input json, output json, explanation text, seq bigint, prev_hash text, hash text)
         )
         UPDATE audit_heads SET seq = h.seq, hash = h.hash, updated_at = $2
         FROM json_to_recordset($3::json) AS h(account_id text, seq bigint, hash text)
         WHERE audit_heads.account_id = h.account_id`,
        [rows.join(','), receivedAt, JSON.stringify(movedHeads)],
      );
      return receipts.map(({ receivedAt: at, seq, hash }) => ({ receivedAt: at, seq, hash }));
    });
  }
}

/** Locks the accounts' chain heads in account order, so that two processes never wait on each other in a cycle. */
async function lockHeads(client: PoolClient, accounts: string[]): Promise<Array<{ account_id: string; seq: string; hash: string }>> {
  const { rows } = await client.query<{ account_id: string; seq: string; hash: string }>(
    'SELECT account_id, seq::text AS seq, hash FROM audit_heads WHERE account_id = ANY($1::text[]) ORDER BY account_id FOR UPDATE',
    [accounts],
  );
  return rows;
}
