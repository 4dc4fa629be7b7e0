import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The prevHash of an account's first log. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * A log as accepted: exactly what its chain hash covers. `input` and `output` are the agent's JSON values, `orderId`
 * the order's decimal digits (or null), `receivedAt` ISO-8601 with milliseconds, `seq` the decimal position.
 */
export interface AcceptedLog {
  accountId: string;
  seq: string;
  id: string;
  receivedAt: string;
  agentKeyId: string;
  orderId: string | null;
  stage: string;
  model: string;
  input: unknown;
  output: unknown;
  explanation: string;
  /**
   * The model calls the log names, in its order: each call's id and its link's hash in the account's chain of model
   * calls, which covers the SHA-256 of the bytes sent and answered. Absent or empty: none, and not in the JSON.
   */
  modelCalls?: ModelCallRef[] | null;
}

/** A model call as a log names it: its id, and its link's hash in the account's chain of model calls. */
export interface ModelCallRef {
  id: string;
  hash: string;
}

/** The canonical JSON of a log as accepted; `seq` is written as a JSON integer. */
export function canonicalLog(log: AcceptedLog): string {
  return canonicalLogWith(log, canonicalJson(log.input), canonicalJson(log.output));
}

/**
 * canonicalLog for a log whose input and output are already in canonical form, so that ingest can canonicalise them
 * before it takes the chain's lock.
 */
export function canonicalLogWith(log: Omit<AcceptedLog, 'input' | 'output'>, input: string, output: string): string {
  return joinCanonicalLog(canonicalLogParts(log, input, output), log.receivedAt, log.seq);
}

/**
 * The canonical log without the two fields only the chain's lock fixes (`receivedAt` and `seq`, which follow each other
 * in sorted order): what goes before them and what comes after. Ingest makes the parts before it takes the lock, and
 * {@link joinCanonicalLog} completes them under it. The fields are written in their sorted order.
 */
export function canonicalLogParts(log: Omit<AcceptedLog, 'input' | 'output' | 'seq' | 'receivedAt'>, input: string, output: string): CanonicalLogParts {
  const q = JSON.stringify;
  // Joined, not concatenated: join makes one flat string, where `+` leaves a tree of pieces that every scavenge would
  // copy while the log waits for the lock.
  const before = [
    '{"accountId":',
    q(log.accountId),
    ',"agentKeyId":',
    q(log.agentKeyId),
    ',"explanation":',
    q(log.explanation),
    ',"id":',
    q(log.id),
    ',"input":',
    input,
    ',"model":',
    q(log.model),
    // Only when the log names calls: the logs before modelCalls existed keep their canonical form, and their hashes.
    log.modelCalls && log.modelCalls.length > 0 ? `,"modelCalls":${q(log.modelCalls.map((c) => ({ hash: c.hash, id: c.id })))}` : '',
    ',"orderId":',
    log.orderId === null ? 'null' : q(log.orderId),
    ',"output":',
    output,
    ',"receivedAt":',
  ].join('');
  return { before, after: `,"stage":${q(log.stage)}}` };
}

export interface CanonicalLogParts {
  before: string;
  after: string;
}

/** The canonical log from its parts, `receivedAt` (ISO-8601) and `seq` (decimal, written as a JSON integer). */
export function joinCanonicalLog(parts: CanonicalLogParts, receivedAt: string, seq: string): string {
  return `${parts.before}${JSON.stringify(receivedAt)},"seq":${BigInt(seq)}${parts.after}`;
}

/** SHA-256 of the previous hash (64 hex digits, as text) followed by the log's canonical JSON, as hex. */
export function chainHash(prevHash: string, canonical: string): string {
  return hash('sha256', prevHash + canonical, 'hex');
}
