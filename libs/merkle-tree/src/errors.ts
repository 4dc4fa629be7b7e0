/** An argument broke one of the library's rules (not an integer, out of range, a frontier of the wrong shape); the message names the rule. */
export class MerkleArgumentError extends Error {
  override readonly name = 'MerkleArgumentError';

  constructor(readonly rule: string) {
    super(rule);
  }
}

/** The caller's HashReader answered with the wrong number of hashes or a hash that is not 32 bytes: storage is broken, not the request. */
export class MerkleReaderError extends Error {
  override readonly name = 'MerkleReaderError';
}
