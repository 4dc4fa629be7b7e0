import { Injectable } from '@nestjs/common';
import { GroupCommit } from '#libs/common';
import { crashHere, GatewayConfig } from '#libs/config';
import { type IdempotencyClaim, IdempotencyKeyTakenError, IdempotencyRepository } from '#libs/idempotency';
import type { PoolClient } from 'pg';
import { AiLogAppendRepository, type LogToAppend } from './ai-log-append.repository.js';
import { isDataException, tiedToItsData } from '#libs/database';
import { LogNotStorableException } from './log-not-storable.exception.js';

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
    private readonly rows: AiLogAppendRepository,
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
    const outcomes = await this.rows.transaction(async (client) => {
      const receivedAt = new Date();
      const accounts = [...new Set(requests.flatMap((r) => r.logs.map((log) => log.accountId)))].sort();
      const head = await this.rows.lockHeads(client, accounts);
      const taken = await this.recordKeys(client, requests, receivedAt);
      const logs = requests.filter((_, i) => !taken[i]).flatMap((r) => r.logs);
      if (logs.length > 0) await this.rows.insert(client, logs, head, receivedAt);
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
