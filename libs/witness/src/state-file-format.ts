import { MAX_TREE_SIZE, parseHash, parseSize } from './numbers.js';
import type { TreeHead } from './state-store.js';

/** The state file is unusable; the witness must not start, since starting empty would let a log roll back. */
export class WitnessStateError extends Error {
  override readonly name = 'WitnessStateError';
}

/**
 * The state file's text: `{ "<origin>": { "size": "<decimal>", "root": "<base64>" } }`, origins sorted, sizes as decimal
 * strings so that no size passes through a JS number.
 */
export function formatState(heads: ReadonlyMap<string, TreeHead>): string {
  const out: Record<string, { size: string; root: string }> = {};
  for (const origin of [...heads.keys()].sort()) {
    const { size, root } = heads.get(origin)!;
    out[origin] = { size: size.toString(), root: root.toString('base64') };
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Parses the state file strictly; every problem is a WitnessStateError naming the file, the origin and the rule. */
export function parseState(text: string, path: string): Map<string, TreeHead> {
  const bad = (detail: string) =>
    new WitnessStateError(
      `witness state file ${path} is unusable: ${detail}. Refusing to start: an empty state would let a log roll back; ` +
        'restore the file from a backup (delete it only to forget every log the witness has seen)',
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw bad(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('the top level must be an object of origins');
  const heads = new Map<string, TreeHead>();
  for (const [origin, value] of Object.entries(parsed)) {
    const where = `origin ${JSON.stringify(origin)}`;
    if (origin === '') throw bad('an origin is empty');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${where} must be an object { "size", "root" }`);
    const { size, root, ...rest } = value as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw bad(`${where} has unknown fields ${Object.keys(rest).join(', ')}`);
    const parsedSize = typeof size === 'string' ? parseSize(size, MAX_TREE_SIZE) : undefined;
    if (parsedSize === undefined) throw bad(`${where}: "size" must be a decimal string without leading zeros, at most 2^63-1`);
    const parsedRoot = typeof root === 'string' ? parseHash(root) : undefined;
    if (parsedRoot === undefined) throw bad(`${where}: "root" must be a 32-byte hash in canonical standard base64`);
    heads.set(origin, { size: parsedSize, root: parsedRoot });
  }
  return heads;
}
