import { Injectable } from '@nestjs/common';
import { type AcceptedLog, canonicalLog, chainHash, GENESIS_HASH } from '#libs/audit-chain';
import { SqlPool } from '#libs/database';
import type { PoolClient } from 'pg';
import { GroupCommit } from './group-commit.js';

/** A validated log ready to be stored: its JSON as text (for the upload) and as values (for the chain hash). */
export interface LogToAppend {
  id: string;
  accountId: string;
  agentKeyId: string;
  orderId: string | null;
  stage: string;
  model: string;
  input: string;
  output: string;
  inputValue: unknown;
  outputValue: unknown;
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
 * request are already there when the first commits, instead of starting then: under load, p99 halved (docs/benchmarks.md).
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

      const receipts = logs.map((log) => {
        const previous = head.get(log.accountId)!;
        const seq = (previous.seq + 1n).toString();
        const accepted: AcceptedLog = {
          accountId: log.accountId,
          seq,
          id: log.id,
          receivedAt: receivedAt.toISOString(),
          agentKeyId: log.agentKeyId,
          orderId: log.orderId,
          stage: log.stage,
          model: log.model,
          input: log.inputValue,
          output: log.outputValue,
          explanation: log.explanation,
        };
        const hash = chainHash(previous.hash, canonicalLog(accepted));
        head.set(log.accountId, { seq: BigInt(seq), hash });
        return { receivedAt, seq, hash, prevHash: previous.hash };
      });

      // The rows travel as one JSON document: JSON.stringify is native, where pg would escape array elements in JS.
      const rows = logs.map((log, i) => ({
        id: log.id,
        account_id: log.accountId,
        agent_key_id: log.agentKeyId,
        order_id: log.orderId,
        stage: log.stage,
        model: log.model,
        input: log.input,
        output: log.output,
        explanation: log.explanation,
        seq: receipts[i].seq,
        prev_hash: receipts[i].prevHash,
        hash: receipts[i].hash,
      }));
      const movedHeads = [...head.entries()].map(([account_id, h]) => ({ account_id, seq: h.seq.toString(), hash: h.hash }));
      await client.query(
        `WITH inserted AS (
           INSERT INTO ai_logs (id, account_id, agent_key_id, order_id, stage, model, input, output, explanation,
                                received_at, next_attempt_at, updated_at, seq, prev_hash, hash)
           SELECT id, account_id, agent_key_id, order_id, stage, model, input, output, explanation, $2, $2, $2, seq, prev_hash, hash
           FROM json_to_recordset($1::json) AS v(id uuid, account_id text, agent_key_id text, order_id bigint, stage text,
                model text, input text, output text, explanation text, seq bigint, prev_hash text, hash text)
         )
         UPDATE audit_heads SET seq = h.seq, hash = h.hash, updated_at = $2
         FROM json_to_recordset($3::json) AS h(account_id text, seq bigint, hash text)
         WHERE audit_heads.account_id = h.account_id`,
        [JSON.stringify(rows), receivedAt, JSON.stringify(movedHeads)],
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
