import { canonicalJson, chainHash } from '#libs/audit-chain';

/** Where a call was recorded from: the proxy at /llm/openai/v1, or a span sent to /otlp/v1/traces. */
export type ModelCallSource = 'proxy' | 'otlp';

/** A span's own fields (null on the proxy's calls). */
export interface SpanFields {
  traceId: string | null;
  spanId: string | null;
  parentSpanId: string | null;
  spanName: string | null;
  serviceName: string | null;
  provider: string | null;
  operation: string | null;
  weexOrderId: string | null;
  weexStage: string | null;
  weexExplanation: string | null;
}

/**
 * A model call as its link in the account's chain covers it: every field of the row but the bodies, which their
 * SHA-256s stand for (so that checking a link needs no megabytes), and the chain's own prevHash and hash. Instants
 * are ISO-8601 with milliseconds, `seq` the decimal position (written as a JSON integer).
 */
export interface ModelCallLink extends SpanFields {
  source: ModelCallSource;
  accountId: string;
  seq: string;
  id: string;
  agentKeyId: string;
  method: string | null;
  path: string | null;
  upstreamUrl: string | null;
  requestedModel: string | null;
  answeredModel: string | null;
  responseId: string | null;
  httpStatus: number | null;
  outcome: string;
  error: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  startedAt: string;
  firstByteAt: string | null;
  finishedAt: string;
  requestSha256: string;
  responseSha256: string;
}

const SPAN_FIELDS: ReadonlyArray<keyof SpanFields | 'source'> = [
  'source',
  'traceId',
  'spanId',
  'parentSpanId',
  'spanName',
  'serviceName',
  'provider',
  'operation',
  'weexOrderId',
  'weexStage',
  'weexExplanation',
];

/**
 * The canonical JSON of a call's link: the audit chain's canonical form (sorted keys, no whitespace). A proxy call's
 * link has the fields it had before spans were recorded, so that the links committed then still hash the same; a
 * span's has them all.
 */
export function canonicalModelCall(call: ModelCallLink): string {
  return canonicalJson(linkFields(call, BigInt(call.seq)));
}

function linkFields(call: Omit<ModelCallLink, 'seq'>, seq: bigint | number): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...call, seq };
  if (call.source === 'proxy') for (const key of SPAN_FIELDS) delete fields[key];
  return fields;
}

/** SHA-256 of the previous call's hash followed by this call's canonical JSON, as the AI-log chain hashes its logs. */
export function modelCallHash(prevHash: string, call: ModelCallLink): string {
  return chainHash(prevHash, canonicalModelCall(call));
}

/** The span fields of a call that is not a span. */
export const NO_SPAN: Readonly<SpanFields> = Object.freeze({
  traceId: null,
  spanId: null,
  parentSpanId: null,
  spanName: null,
  serviceName: null,
  provider: null,
  operation: null,
  weexOrderId: null,
  weexStage: null,
  weexExplanation: null,
});

/**
 * A call's canonical JSON made before its place in the chain is known, split where its seq goes: a batch makes these
 * outside the chain's lock, and inside it only joins and hashes (an export's 1,000 links took 50-150 ms of the lock
 * to make whole, which every other export of the account waited for). `"seq":0` is found once, as a key: a string
 * value's quotes are escaped in JSON, so no value holds it.
 */
export function unplacedLink(call: Omit<ModelCallLink, 'seq'>): { head: string; tail: string } {
  // seq as the number 0, which prints as the bigint would, keeps canonicalJson on its fast path (a bigint leaves it).
  const text = canonicalJson(linkFields(call, 0));
  const at = text.indexOf('"seq":0') + '"seq":'.length;
  return { head: text.slice(0, at), tail: text.slice(at + 1) };
}

/** modelCallHash of an unplaced link put at `seq`. */
export const placedLinkHash = (prevHash: string, link: { head: string; tail: string }, seq: bigint): string => chainHash(prevHash, link.head + seq + link.tail);
