import { type JsonNode, tlogProofVerifier } from 'tlog-verifier';

/**
 * What the decision page shows of a log that the proof's entry (the log as accepted, its canonical JSON) also holds:
 * the values as the page renders them, input and output as the nodes it draws (read losslessly where it could).
 */
export interface Shown {
  id: string;
  model: string;
  stage: string;
  orderId: string | null;
  receivedAt: string;
  explanation: string;
  input: JsonNode;
  output: JsonNode;
  chain: { seq: string; prevHash: string; hash: string };
  /** The model calls the page lists: each one's id and chain hash, which the entry's `modelCalls` holds. */
  modelCalls: { id: string; hash: string }[];
}

/** A value the page shows otherwise than the proof's entry holds it: where, and both sides as short text. */
export interface Difference {
  field: string;
  shown: string;
  entry: string;
}

const SPAN = { a: 0, b: 0 };
const text = (v: string | null): JsonNode => (v === null ? { ...SPAN, k: 'l', text: 'null' } : { ...SPAN, k: 's', v });

/**
 * Every field the page shows that the entry holds, compared with it: strings as decoded, numbers by the text they
 * were posted with (so `1.10` against `1.1`, or a 30-digit integer rounded, is a difference), objects by their keys
 * whatever their order. Then the chain link: its hash must be `entryHash`, SHA-256(previous hash shown ‖ entry).
 */
export function differences(entry: string, shown: Shown, entryHash: string): Difference[] {
  let root: JsonNode;
  try {
    root = tlogProofVerifier.parseJsonLosslessly(entry);
  } catch {
    return [{ field: 'entry', shown: 'this log', entry: 'text that is not JSON' }];
  }
  const member = (key: string) => (root.k === 'o' ? root.members.get(key) : undefined);
  const pairs: [string, JsonNode][] = [
    ['id', text(shown.id)],
    ['model', text(shown.model)],
    ['stage', text(shown.stage)],
    ['orderId', text(shown.orderId)],
    ['receivedAt', text(shown.receivedAt)],
    ['explanation', text(shown.explanation)],
    ['input', shown.input],
    ['output', shown.output],
    ['seq', { ...SPAN, k: 'n', text: shown.chain.seq }],
  ];
  // Absent from the entry of a log that names no call, as from the page.
  const calls: JsonNode | undefined =
    shown.modelCalls.length === 0
      ? undefined
      : {
          ...SPAN,
          k: 'a',
          items: shown.modelCalls.map((c) => ({
            ...SPAN,
            k: 'o',
            members: new Map([
              ['hash', text(c.hash)],
              ['id', text(c.id)],
            ]),
          })),
        };
  const found: Difference[] = [];
  const callsAt = firstDifference(calls, member('modelCalls'), 'modelCalls');
  if (callsAt) found.push({ field: callsAt[0], shown: render(callsAt[1]), entry: render(callsAt[2]) });
  for (const [field, value] of pairs) {
    const at = firstDifference(value, member(field), field);
    if (at) found.push({ field: at[0], shown: render(at[1]), entry: render(at[2]) });
  }
  if (entryHash !== shown.chain.hash) found.push({ field: 'chain hash', shown: shown.chain.hash, entry: `${entryHash} after the previous hash shown` });
  return found;
}

/** The chain's hash of a log: SHA-256 of the previous hash (its 64 hex characters) and the entry, in hex. */
export async function chainHash(prevHash: string, entry: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(prevHash + entry)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

type At = [path: string, shown: JsonNode | undefined, entry: JsonNode | undefined];

/** The path of the first value that differs between what is shown and what the entry holds, with both values. */
function firstDifference(shown: JsonNode | undefined, entry: JsonNode | undefined, path: string): At | undefined {
  if (shown === undefined || entry === undefined || shown.k !== entry.k) return shown === entry ? undefined : [path, shown, entry];
  if (shown.k === 's') return shown.v === (entry as typeof shown).v ? undefined : [path, shown, entry];
  if (shown.k === 'n' || shown.k === 'l') return shown.text === (entry as typeof shown).text ? undefined : [path, shown, entry];
  if (shown.k === 'a' && entry.k === 'a') {
    if (shown.items.length !== entry.items.length) return [path, shown, entry];
    for (let i = 0; i < shown.items.length; i++) {
      const at = firstDifference(shown.items[i], entry.items[i], `${path}[${i}]`);
      if (at) return at;
    }
    return undefined;
  }
  if (shown.k === 'o' && entry.k === 'o') {
    for (const key of new Set([...shown.members.keys(), ...entry.members.keys()])) {
      const at = firstDifference(
        shown.members.get(key),
        entry.members.get(key),
        /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`,
      );
      if (at) return at;
    }
  }
  return undefined;
}

/** A value as short text for the reason: strings quoted (long ones cut), numbers as written, containers by size. */
function render(node: JsonNode | undefined): string {
  if (node === undefined) return 'nothing';
  if (node.k === 's') return JSON.stringify(node.v.length > 80 ? `${node.v.slice(0, 80)}…` : node.v);
  if (node.k === 'o') return `an object of ${node.members.size} keys`;
  if (node.k === 'a') return `an array of ${node.items.length} items`;
  return node.text;
}
