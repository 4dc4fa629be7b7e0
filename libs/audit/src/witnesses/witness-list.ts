import { ed25519CosignatureVerifier, keyLabel, type NoteVerifier, SignedNoteError } from '#libs/signed-note';

/** A witness the gateway asks to cosign each checkpoint: where it takes submissions, and the key it cosigns with. */
export interface ConfiguredWitness {
  /** The submission prefix, without a trailing slash: requests go to `<url>/add-checkpoint`. */
  url: string;
  verifier: NoteVerifier;
  /** `<name>+<hex key id>`: how the witness is named in logs, metrics and the database. */
  label: string;
  /** The verifier key as configured, served to judges' browsers (GET /v1/audit/witnesses) to check cosignatures. */
  verifierKey: string;
}

/** Parses AUDIT_WITNESSES (`<url> <vkey>` entries separated by `;` or new lines); throws naming the entry that is wrong. */
export function parseWitnesses(text: string | undefined): ConfiguredWitness[] {
  const entries = (text ?? '')
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  const witnesses = entries.map((entry, i) => {
    const [url, vkey, ...rest] = entry.split(/\s+/);
    const where = `AUDIT_WITNESSES entry ${i + 1}`;
    if (!/^https?:\/\/[^\s]+$/.test(url ?? '') || !vkey || rest.length > 0) throw new Error(`${where}: expected "<http(s) URL> <verifier key>"`);
    try {
      const verifier = ed25519CosignatureVerifier(vkey);
      return { url: url.replace(/\/+$/, ''), verifier, label: keyLabel(verifier.name, verifier.keyId), verifierKey: vkey };
    } catch (error) {
      if (error instanceof SignedNoteError) throw new Error(`${where}: ${error.message}`, { cause: error });
      throw error;
    }
  });
  const labels = new Set(witnesses.map((w) => w.label));
  if (labels.size < witnesses.length) throw new Error('AUDIT_WITNESSES names one witness key twice');
  return witnesses;
}
