import { type KeyObject, sign } from 'node:crypto';
import { leafHash, nodeHash } from '#libs/merkle-tree';
import { formatCheckpoint, formatTlogProof, parseCheckpoint, parseNote, parseTlogProof, parseVerifierKey, signNote } from '#libs/signed-note';

/** RFC 9162 §2.1.3.2 run forwards: the root a leaf and its inclusion proof lead to. */
function rootOf(leaf: Buffer, index: bigint, size: bigint, hashes: readonly Uint8Array[]): Buffer {
  let fn = index;
  let sn = size - 1n;
  let hash = leaf;
  for (const sibling of hashes) {
    if ((fn & 1n) === 1n || fn === sn) {
      hash = nodeHash(sibling, hash);
      while (fn !== 0n && (fn & 1n) === 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      hash = nodeHash(hash, sibling);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return hash;
}

/**
 * What whoever holds the gateway's signing key can make of a real proof: its entry rewritten by `rewrite`, the tree's
 * root recomputed over the same sibling hashes, the checkpoint signed again with that key alone (no witness would
 * cosign the rewritten tree).
 */
export function forgeProof(real: string, rewrite: (entry: string) => string, key: { privateKey: KeyObject; vkey: string }): string {
  const proof = parseTlogProof(real);
  const entry = Buffer.from(rewrite(Buffer.from(proof.extra!).toString('utf8')), 'utf8');
  const checkpoint = parseCheckpoint(parseNote(proof.checkpoint).text);
  const rootHash = rootOf(leafHash(entry), proof.index, checkpoint.size, proof.hashes);
  const { name, keyId } = parseVerifierKey(key.vkey);
  const signer = { name, keyId, sign: (message: Uint8Array) => sign(null, message, key.privateKey) };
  const note = signNote(formatCheckpoint({ ...checkpoint, rootHash }), signer);
  return formatTlogProof({ extra: entry, index: proof.index, hashes: proof.hashes, checkpoint: note });
}
