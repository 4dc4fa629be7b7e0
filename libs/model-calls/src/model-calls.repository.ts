import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { GENESIS_HASH } from '#libs/audit-chain';
import { GroupCommit } from '#libs/common';
import { type Prisma, PrismaService, SqlPool, tiedToItsData } from '#libs/database';
import type { PoolClient, QueryResult } from 'pg';
import { headsAre, KnownHeads, type LastLink, lastLinks } from './chain-heads.js';
import type { ModelCallLink, ModelCallSource } from './model-call-chain.js';
import { INSERT_BATCH, type Placement, placeBatch, placeRows, type PreparedRow, prepareRow } from './model-call-rows.js';

/** A call to record: its link's fields but the chain's, and its bodies. */
export type NewModelCall = Omit<ModelCallLink, 'seq'> & {
  requestBody: string;
  responseBody: string;
  /** `utf8`: responseBody is the answer's text; `base64`: its bytes, which were not text. */
  responseEncoding: string;
};

/** A recorded call: its link, chained, and (for one call) its bodies. */
export type StoredModelCall = ModelCallLink & { prevHash: string; hash: string };
export type StoredModelCallWithBodies = StoredModelCall & Pick<NewModelCall, 'requestBody' | 'responseBody' | 'responseEncoding'>;

/** The owner of `model_calls`: every read and write of the table goes through here. */
@Injectable()
export class ModelCallsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: SqlPool,
  ) {}

  /** The last link of each account's chain this process saw committed: where its next group is placed first. */
  private readonly heads = new KnownHeads();

  /**
   * Commits calls as the next links of their accounts' chains, those of concurrent requests together (group commit):
   * one transaction takes each account's turn (a transaction-scoped advisory lock, so that processes take turns too),
   * reads its head, and inserts the calls after it. An insert per call that retried on the unique (account_id, seq)
   * spent 40 ms at p50 with 5 agents calling at once, and one lock per call queued them (bench: llm).
   */
  // isolate: a call PostgreSQL refuses (validation should have caught it) fails alone, not the calls it was grouped with.
  private readonly commits = new GroupCommit<NewModelCall, StoredModelCall>((calls) => this.write(calls), 200, undefined, { isolate: tiedToItsData });

  /** Commits the call as the next link of its account's chain; resolves once it has committed. */
  async append(call: NewModelCall): Promise<StoredModelCall> {
    const [stored] = await this.commits.submit([call]);
    return stored;
  }

  /**
   * One group's transaction on ingest's pg pool, since a call's answer waits for it. Placed after the heads this
   * process last saw committed, it is one round trip: BEGIN, the accounts' locks (in account order, so that processes
   * never deadlock), the INSERT only if those are still the last links, the last links as they then are, COMMIT. If
   * another process appended meanwhile, nothing is inserted and the links read are the heads for a second try; after
   * that, the heads are read under the locks first (two round trips), which always succeeds. Multi-statement text
   * takes no parameters, so the values go in as literals: the batch's document (the bodies) dollar-quoted, which
   * needs no escaping. One round trip instead of two took about 1 ms off what capture adds to a lone caller's whole
   * answer at p50 (bench: llm).
   */
  private async write(calls: NewModelCall[]): Promise<StoredModelCall[]> {
    const prepared = calls.map(prepareRow);
    const accounts = [...new Set(calls.map((call) => call.accountId))].sort();
    const client = await this.sql.connect();
    try {
      const literal = (text: string) => client.escapeLiteral(text);
      const locks = accounts.map((accountId) => `SELECT pg_advisory_xact_lock(hashtextextended(${literal(`model_calls:${accountId}`)}, 0));`).join(' ');
      // A function, not a string, as replace's second argument: '$&' or '$1' in a body would be patterns in a string.
      const insert = (document: string) => INSERT_BATCH.replace('$1', () => dollarQuoted(document));
      const links = lastLinks(accounts.map(literal));
      const afterKnownHeads = async (): Promise<Placement[] | undefined> => {
        const heads = this.heads.of(accounts);
        const batch = placeBatch(calls, prepared, heads);
        const statements = `BEGIN; ${locks} ${insert(batch.document)} WHERE ${headsAre(heads, literal)}; ${links}; COMMIT`;
        const results = (await client.query(statements)) as unknown as Array<QueryResult<LastLink>>;
        this.heads.read(accounts, results.at(-2)!.rows);
        return results.at(-3)!.rowCount === calls.length ? batch.placements : undefined;
      };
      const afterHeadsRead = async (): Promise<Placement[]> => {
        const results = (await client.query(`BEGIN; ${locks} ${links}`)) as unknown as Array<QueryResult<LastLink>>;
        const batch = placeBatch(calls, prepared, this.heads.read(accounts, results.at(-1)!.rows));
        await client.query(`${insert(batch.document)}; COMMIT`);
        for (const [accountId, head] of batch.heads) this.heads.set(accountId, head);
        return batch.placements;
      };
      const placed = (await afterKnownHeads()) ?? (await afterKnownHeads()) ?? (await afterHeadsRead());
      return calls.map((call, i) => {
        const { requestBody: _request, responseBody: _response, responseEncoding: _encoding, ...fields } = call;
        return { ...fields, seq: placed[i].seq.toString(), prevHash: placed[i].prevHash, hash: placed[i].hash };
      });
    } catch (error) {
      this.heads.forget(accounts); // the outcome of a COMMIT that failed on its way is unknown
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Commits the spans of one export (all of one account) as the next links of its chain, in their order, leaving out
   * those already stored (by trace and span id): an exporter's retry, or a span sent twice in one request, is stored
   * once. One transaction under the lock of the account's chain that the proxy's group commits take too (so the check
   * for stored spans is exact, and no seq is taken twice), one INSERT for the batch, on ingest's pg pool (Prisma's
   * runtime was 4% of the API's CPU in the OTLP benchmark). The links are made before the lock (unplacedLink) and only
   * placed and hashed in it.
   */
  async appendSpans(accountId: string, calls: NewModelCall[]): Promise<{ stored: number; duplicates: number }> {
    // The first copy of a span stands, as it does for the span's decision (span-decision.ts).
    const byId = new Map<string, NewModelCall>();
    for (const call of calls) {
      const key = `${call.traceId}/${call.spanId}`;
      if (!byId.has(key)) byId.set(key, call);
    }
    const unique = [...byId.values()];
    const prepared = new Map(unique.map((call) => [call, prepareRow(call)]));
    let last: Placement | undefined;
    const result = await this.sql
      .transaction(async (client) => {
        await client.query(LOCK_CHAIN, [`model_calls:${accountId}`]);
        const known = await client.query<{ trace_id: string; span_id: string }>(KNOWN_SPANS, [
          accountId,
          unique.map((c) => c.traceId),
          unique.map((c) => c.spanId),
        ]);
        const stored = new Set(known.rows.map((row) => `${row.trace_id}/${row.span_id}`));
        const fresh = unique.filter((call) => !stored.has(`${call.traceId}/${call.spanId}`));
        if (fresh.length > 0) {
          const { texts, placements } = await placeAfterHead(
            client,
            accountId,
            fresh.map((call) => prepared.get(call)!),
          );
          await client.query(INSERT_BATCH, [`[${texts.join(',')}]`]);
          last = placements.at(-1);
        }
        return { stored: fresh.length, duplicates: calls.length - fresh.length };
      })
      .catch((error: unknown) => {
        this.heads.forget([accountId]);
        throw error;
      });
    // Committed: the proxy's next group of the account goes after these spans in one round trip.
    if (last) this.heads.set(accountId, { seq: last.seq, hash: last.hash });
    return result;
  }

  /** One page of the account's calls, newest (highest seq) first, below `beforeSeq` when given; without bodies. */
  async page(accountId: string, limit: number, beforeSeq?: bigint): Promise<StoredModelCall[]> {
    const rows = await this.prisma.modelCall.findMany({
      where: { accountId, ...(beforeSeq === undefined ? {} : { seq: { lt: beforeSeq } }) },
      orderBy: { seq: 'desc' },
      take: limit,
      omit: { requestBody: true, responseBody: true, responseEncoding: true },
    });
    return rows.map(toStored);
  }

  /** The account's calls among `ids`, with their bodies: those of other accounts, or none, are left out. */
  async findMany(accountId: string, ids: string[]): Promise<StoredModelCallWithBodies[]> {
    // Raw: Prisma's runtime spent more CPU on a span export's thousand bodies than the rest of making their logs.
    const { rows, fields } = await this.sql.query<unknown[]>({ text: CALLS_BY_ID, values: [accountId, ids], rowMode: 'array' });
    const names = fields.map((field) => field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
    // Each row as Prisma names its fields (request_sha256: requestSha256); pg's types are Prisma's but for bigint's text.
    return rows.map((row) => withBodies(Object.fromEntries(names.map((name, i) => [name, row[i]])) as Prisma.ModelCallGetPayload<object>));
  }

  /**
   * The answered calls of each trace, the latest `limit` of each, in chain order: their ids and the bytes of their
   * bodies, which are not read (a trace's calls may hold megabytes each).
   */
  async answeredInTraces(accountId: string, traceIds: string[], limit: number): Promise<Array<{ id: string; traceId: string; bytes: number }>> {
    // Raw: Prisma cannot take the latest n of each trace (a LATERAL join); octet_length reads no body.
    const { rows } = await this.sql.query<{ id: string; trace_id: string; bytes: number }>(LATEST_IN_TRACES, [accountId, traceIds, limit]);
    return rows.map((row) => ({ id: row.id, traceId: row.trace_id, bytes: row.bytes }));
  }

  /** The link hashes of the account's calls among `ids`: what a log that names them holds of each in its hash. */
  async hashes(accountId: string, ids: string[]): Promise<Map<string, string>> {
    const rows = await this.prisma.modelCall.findMany({ where: { accountId, id: { in: ids } }, select: { id: true, hash: true } });
    return new Map(rows.map((row) => [row.id, row.hash]));
  }

  async find(accountId: string, id: string): Promise<StoredModelCallWithBodies | undefined> {
    const row = await this.prisma.modelCall.findFirst({ where: { id, accountId } });
    return row ? withBodies(row) : undefined;
  }
}

/**
 * The text as a dollar-quoted literal, which PostgreSQL reads verbatim, under a random tag the text does not hold.
 * pg's escapeLiteral appends a character at a time, a rope of string nodes many times a body's size; with it and the
 * draft's extra copies, 5 answers of 3 MB at once peaked 366-450 MB over the API at rest, 146-157 MB without (bench:
 * llm-memory).
 */
function dollarQuoted(text: string): string {
  let tag: string;
  do tag = `$body_${randomBytes(8).toString('hex')}$`;
  while (text.includes(tag));
  return tag + text + tag;
}

/** The spans of a batch (ids as arrays $2, $3) the account ($1) has already stored. */
const KNOWN_SPANS = `SELECT m.trace_id, m.span_id FROM unnest($2::text[], $3::text[]) AS s(trace_id, span_id)
  JOIN model_calls m ON m.account_id = $1 AND m.trace_id = s.trace_id AND m.span_id = s.span_id`;
/** The calls of account $1 among the ids $2 (UUIDs: the log's DTO checked them). */
const CALLS_BY_ID = `SELECT * FROM model_calls WHERE account_id = $1 AND id = ANY($2::uuid[])`;
/** The ids of the latest $3 answered calls of each of the traces $2 of account $1. */
const LATEST_IN_TRACES = `SELECT m.id, m.trace_id, m.bytes FROM unnest($2::text[]) AS t(trace_id) CROSS JOIN LATERAL (
  SELECT id, trace_id, seq, octet_length(request_body) + octet_length(response_body) AS bytes FROM model_calls
  WHERE account_id = $1 AND trace_id = t.trace_id AND outcome = 'answered' ORDER BY seq DESC LIMIT $3) m ORDER BY m.seq`;
/** The lock of an account's chain, until the transaction ends: the proxy's groups and the exports take turns by it. */
const LOCK_CHAIN = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';
/** The account's last link (seq as text for pg; ordered by the column, not by that text). */
const LAST_LINK = 'SELECT m.seq::text AS seq, m.hash FROM model_calls m WHERE m.account_id = $1 ORDER BY m.seq DESC LIMIT 1';

/** The rows placed after the account's last link, read under its lock (LOCK_CHAIN, taken by the caller). */
async function placeAfterHead(client: PoolClient, accountId: string, rows: PreparedRow[]): Promise<{ texts: string[]; placements: Placement[] }> {
  const last = (await client.query<{ seq: string; hash: string }>(LAST_LINK, [accountId])).rows[0];
  return placeRows(rows, BigInt(last?.seq ?? 0), last?.hash ?? GENESIS_HASH);
}

/** A stored row with its bodies. */
const withBodies = (row: Prisma.ModelCallGetPayload<object>): StoredModelCallWithBodies => ({
  ...toStored(row),
  requestBody: row.requestBody,
  responseBody: row.responseBody,
  responseEncoding: row.responseEncoding,
});

type StoredRow = Omit<Prisma.ModelCallGetPayload<object>, 'requestBody' | 'responseBody' | 'responseEncoding'>;

function toStored(row: StoredRow): StoredModelCall {
  return {
    id: row.id,
    accountId: row.accountId,
    seq: row.seq.toString(),
    source: row.source as ModelCallSource,
    agentKeyId: row.agentKeyId,
    method: row.method,
    path: row.path,
    upstreamUrl: row.upstreamUrl,
    traceId: row.traceId,
    spanId: row.spanId,
    parentSpanId: row.parentSpanId,
    spanName: row.spanName,
    serviceName: row.serviceName,
    provider: row.provider,
    operation: row.operation,
    weexOrderId: row.weexOrderId,
    weexStage: row.weexStage,
    weexExplanation: row.weexExplanation,
    requestedModel: row.requestedModel,
    answeredModel: row.answeredModel,
    responseId: row.responseId,
    httpStatus: row.httpStatus,
    outcome: row.outcome,
    error: row.error,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    totalTokens: row.totalTokens,
    startedAt: row.startedAt.toISOString(),
    firstByteAt: row.firstByteAt?.toISOString() ?? null,
    finishedAt: row.finishedAt.toISOString(),
    requestSha256: row.requestSha256,
    responseSha256: row.responseSha256,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}
