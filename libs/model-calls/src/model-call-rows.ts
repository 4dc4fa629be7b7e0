import { GENESIS_HASH } from '#libs/audit-chain';
import type { ColumnOf, ModelCall } from '#libs/database';
import type { ChainHead } from './chain-heads.js';
import { placedLinkHash, unplacedLink } from './model-call-chain.js';
import type { NewModelCall } from './model-calls.repository.js';

type Row = Record<ColumnOf<ModelCall>, string | number | null>;
/** The columns a batch inserts from its JSON document, with the types json_to_recordset reads them as. */
const BATCH_COLUMNS = {
  id: 'uuid',
  account_id: 'text',
  agent_key_id: 'text',
  source: 'text',
  method: 'text',
  path: 'text',
  upstream_url: 'text',
  trace_id: 'text',
  span_id: 'text',
  parent_span_id: 'text',
  span_name: 'text',
  service_name: 'text',
  provider: 'text',
  operation: 'text',
  weex_order_id: 'text',
  weex_stage: 'text',
  weex_explanation: 'text',
  requested_model: 'text',
  answered_model: 'text',
  response_id: 'text',
  http_status: 'integer',
  outcome: 'text',
  error: 'text',
  request_body: 'text',
  response_body: 'text',
  response_encoding: 'text',
  prompt_tokens: 'integer',
  completion_tokens: 'integer',
  total_tokens: 'integer',
  started_at: 'timestamptz',
  first_byte_at: 'timestamptz',
  finished_at: 'timestamptz',
  request_sha256: 'text',
  response_sha256: 'text',
  seq: 'bigint',
  prev_hash: 'text',
  hash: 'text',
} as const satisfies Record<ColumnOf<ModelCall>, string>;
const batchColumns = Object.keys(BATCH_COLUMNS).join(', ');
/** Inserts the rows of a JSON document ($1): an array of objects with the columns above. */
export const INSERT_BATCH = `INSERT INTO model_calls (${batchColumns}) SELECT ${batchColumns}
  FROM json_to_recordset($1::json) AS v(${Object.entries(BATCH_COLUMNS)
    .map(([column, type]) => `${column} ${type}`)
    .join(', ')})`;

/** A row of the batch's JSON document but for its place in the chain, and its link, both made outside the lock. */
export interface PreparedRow {
  /** The row's JSON object without its closing brace and the chain's three columns. */
  text: string;
  link: { head: string; tail: string };
}

export function prepareRow(call: NewModelCall): PreparedRow {
  const { requestBody, responseBody, responseEncoding, ...link } = call;
  const row: Omit<Row, 'seq' | 'prev_hash' | 'hash'> = {
    id: link.id,
    account_id: link.accountId,
    agent_key_id: link.agentKeyId,
    source: link.source,
    method: link.method,
    path: link.path,
    upstream_url: link.upstreamUrl,
    trace_id: link.traceId,
    span_id: link.spanId,
    parent_span_id: link.parentSpanId,
    span_name: link.spanName,
    service_name: link.serviceName,
    provider: link.provider,
    operation: link.operation,
    weex_order_id: link.weexOrderId,
    weex_stage: link.weexStage,
    weex_explanation: link.weexExplanation,
    requested_model: link.requestedModel,
    answered_model: link.answeredModel,
    response_id: link.responseId,
    http_status: link.httpStatus,
    outcome: link.outcome,
    error: link.error,
    request_body: requestBody,
    response_body: responseBody,
    response_encoding: responseEncoding,
    prompt_tokens: link.promptTokens,
    completion_tokens: link.completionTokens,
    total_tokens: link.totalTokens,
    started_at: link.startedAt,
    first_byte_at: link.firstByteAt,
    finished_at: link.finishedAt,
    request_sha256: link.requestSha256,
    response_sha256: link.responseSha256,
  };
  return { text: JSON.stringify(row).slice(0, -1), link: unplacedLink(link) };
}

/** Where a row went in its account's chain. */
export interface Placement {
  seq: bigint;
  prevHash: string;
  hash: string;
}

/** The rows chained after the link (seq, hash), in their order: each one's JSON object, and its place. */
export function placeRows(rows: PreparedRow[], lastSeq: bigint, lastHash: string): { texts: string[]; placements: Placement[] } {
  let prevHash = lastHash;
  const placements: Placement[] = [];
  const texts = rows.map((row, i) => {
    const seq = lastSeq + BigInt(i + 1);
    const hash = placedLinkHash(prevHash, row.link, seq);
    placements.push({ seq, prevHash, hash });
    const text = `${row.text},"seq":"${seq}","prev_hash":"${prevHash}","hash":"${hash}"}`;
    prevHash = hash;
    return text;
  });
  return { texts, placements };
}

/**
 * A batch's rows placed after their accounts' heads (an account without one starts at the genesis hash): the JSON
 * document to insert, each call's place (in the order of `calls`), and the heads the batch leaves.
 */
export function placeBatch(
  calls: NewModelCall[],
  prepared: PreparedRow[],
  after: Map<string, ChainHead | undefined>,
): { document: string; placements: Placement[]; heads: Map<string, ChainHead> } {
  const placements: Placement[] = [];
  const texts: string[] = [];
  const heads = new Map<string, ChainHead>();
  for (const [accountId, head] of after) {
    const mine = calls.flatMap((call, i) => (call.accountId === accountId ? [i] : []));
    const rows = placeRows(
      mine.map((i) => prepared[i]),
      head?.seq ?? 0n,
      head?.hash ?? GENESIS_HASH,
    );
    mine.forEach((i, k) => (placements[i] = rows.placements[k]));
    texts.push(...rows.texts);
    const last = rows.placements.at(-1);
    if (last) heads.set(accountId, { seq: last.seq, hash: last.hash });
  }
  return { document: `[${texts.join(',')}]`, placements, heads };
}
