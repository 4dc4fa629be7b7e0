/** What went wrong, as a stable code a caller can branch on; the message says the same for a person. */
export type SignedNoteErrorCode =
  | 'malformed-note'
  | 'note-too-large'
  | 'too-many-signatures'
  | 'bad-base64'
  | 'malformed-key'
  | 'unknown-algorithm'
  | 'key-id-mismatch'
  | 'invalid-signer'
  | 'unknown-key'
  | 'ambiguous-key'
  | 'duplicate-signature'
  | 'invalid-signature'
  | 'no-verified-signature'
  | 'malformed-checkpoint'
  | 'wrong-origin'
  | 'malformed-cosignature'
  | 'malformed-proof';

/** The one error type of this library: hostile input ends here, never in a TypeError or a hang. */
export class SignedNoteError extends Error {
  override readonly name = 'SignedNoteError';

  constructor(
    readonly code: SignedNoteErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function fail(code: SignedNoteErrorCode, message: string): never {
  throw new SignedNoteError(code, message);
}
