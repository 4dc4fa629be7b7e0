import { ed25519Cosigner, generateKey, SignedNoteError } from '#libs/signed-note';

// `npm run witness:keygen -- <name>`: a fresh witness key. The signer key goes to WITNESS_KEY and stays secret; the
// verifier key (cosignature/v1, type 0x04) goes to the log operator, e.g. the gateway's AUDIT_WITNESSES.
const args = process.argv.slice(2);
if (args.length !== 1) {
  process.stderr.write('usage: npm run witness:keygen -- <name>   (the name: a schema-less URL, e.g. witness.example.org/w1)\n');
  process.exit(2);
}
try {
  const { signerKey } = generateKey(args[0]);
  const { verifierKey } = ed25519Cosigner(signerKey);
  process.stdout.write(
    [
      '# signer key: keep it secret; the witness reads it from WITNESS_KEY',
      signerKey,
      '# verifier key: give it to the log operator (the gateway: AUDIT_WITNESSES="<this witness URL> <verifier key>")',
      verifierKey,
      '',
    ].join('\n'),
  );
} catch (error) {
  if (!(error instanceof SignedNoteError)) throw error;
  process.stderr.write(`witness:keygen: ${error.message}\n`);
  process.exit(2);
}
