import { createHash } from 'node:crypto';
import {
  ed25519CosignatureVerifier,
  ed25519Cosigner,
  ed25519Signer,
  ed25519Verifier,
  formatCheckpoint,
  formatTlogProof,
  generateKey,
  openCheckpoint,
  parseTlogProof,
  signNote,
} from '#libs/signed-note';

describe('#libs/signed-note public API', () => {
  it('goes from fresh keys to a proof file a judge opens in one step', () => {
    const log = generateKey('gateway.example/accounts/42');
    const witness = generateKey('witness.example/w1');
    const body = formatCheckpoint({ origin: 'gateway.example/accounts/42', size: 3n, rootHash: createHash('sha256').digest(), extensions: [] });
    const cosigner = ed25519Cosigner(witness.signerKey, () => 1_800_000_000n);
    const checkpoint = signNote(body, ed25519Signer(log.signerKey), cosigner);
    const file = formatTlogProof({ index: 2n, hashes: [createHash('sha256').update('sibling').digest()], checkpoint });

    const proof = parseTlogProof(file);
    const opened = openCheckpoint(proof.checkpoint, {
      origin: 'gateway.example/accounts/42',
      logVerifiers: [ed25519Verifier(log.verifierKey)],
      cosignerVerifiers: [ed25519CosignatureVerifier(cosigner.verifierKey)],
    });
    expect(opened.checkpoint.size).toBe(3n);
    expect(opened.cosignatures.map((c) => [c.name, c.timestamp])).toEqual([['witness.example/w1', 1_800_000_000n]]);
  });
});
