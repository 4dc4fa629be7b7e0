import { createHash } from 'node:crypto';

/** Every hash in the tree is a SHA-256 digest. */
export const HASH_SIZE = 32;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** RFC 9162 §2.1.1: the root of the empty tree is the hash of the empty string. */
export const EMPTY_ROOT: Buffer = createHash('sha256').digest();

/** RFC 9162 §2.1.1: leaf hash = SHA-256(0x00 ‖ entry); the prefix keeps a leaf from passing for a node. */
export function leafHash(entry: Uint8Array): Buffer {
  return createHash('sha256').update(LEAF_PREFIX).update(entry).digest();
}

/** RFC 9162 §2.1.1: node hash = SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** Hash of a run of adjacent subtrees, left to right, combined from the right as RFC 9162's MTH splits them. */
export function foldRight(hashes: readonly Buffer[]): Buffer {
  let hash = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) hash = nodeHash(hashes[i], hash);
  return hash;
}
