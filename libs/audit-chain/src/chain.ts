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
}

/** The canonical JSON of a log as accepted; `seq` is written as a JSON integer. */
export function canonicalLog(log: AcceptedLog): string {
  return canonicalLogWith(log, canonicalJson(log.input), canonicalJson(log.output));
}

/**
 * canonicalLog for a log whose input and output are already in canonical form, so that ingest can canonicalise them
 * before it takes the chain's lock. The fields are written in their sorted order.
 */
export function canonicalLogWith(log: Omit<AcceptedLog, 'input' | 'output'>, input: string, output: string): string {
  const q = JSON.stringify;
  return (
    `{"accountId":${q(log.accountId)},"agentKeyId":${q(log.agentKeyId)},"explanation":${q(log.explanation)},"id":${q(log.id)},` +
    `"input":${input},"model":${q(log.model)},"orderId":${log.orderId === null ? 'null' : q(log.orderId)},"output":${output},` +
    `"receivedAt":${q(log.receivedAt)},"seq":${BigInt(log.seq)},"stage":${q(log.stage)}}`
  );
}

/** SHA-256 of the previous hash (64 hex digits, as text) followed by the log's canonical JSON, as hex. */
export function chainHash(prevHash: string, canonical: string): string {
  return hash('sha256', prevHash + canonical, 'hex');
}
