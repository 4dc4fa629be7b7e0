import { type KeyObject, sign } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { registerSecret } from '#libs/logging';
import { keyIdOf, newSigningKeyPem, noteVerifierKey, publicKeyPem, readSigningKey, SANDBOX_AUDIT_KEY_FILE } from '#libs/audit-chain';
import { configuredOrSandboxSecret } from '#libs/common';
import { type NoteSigner, parseVerifierKey } from '#libs/signed-note';

/**
 * The key that signs checkpoints: AUDIT_SIGNING_KEY, or in sandbox mode one made for the data directory. Outside
 * sandbox mode without it, checkpoints are not made (the chain itself still is).
 */
@Injectable()
export class AuditSigner {
  private key?: KeyObject | null;

  constructor(private readonly config: GatewayConfig) {}

  privateKey(): KeyObject | undefined {
    if (this.key === undefined) {
      const text = configuredOrSandboxSecret(this.config.auditSigningKey, this.config, SANDBOX_AUDIT_KEY_FILE, newSigningKeyPem);
      registerSecret(text);
      this.key = text ? readSigningKey(text) : null;
    }
    return this.key ?? undefined;
  }

  /** The same key as a c2sp.org/signed-note signer named AUDIT_ORIGIN, for the checkpoints in the standard format. */
  noteSigner(): NoteSigner | undefined {
    const key = this.privateKey();
    const vkey = this.verifierKey();
    if (!key || !vkey) return undefined;
    return { name: this.config.auditOrigin, keyId: parseVerifierKey(vkey).keyId, sign: (message) => sign(null, message, key) };
  }

  /** The note verifier key, `<name>+<hex key ID>+<base64(0x01 ‖ public key)>`: what `--key` takes. */
  verifierKey(): string | undefined {
    const key = this.privateKey();
    if (!key) return undefined;
    return noteVerifierKey(key, this.config.auditOrigin);
  }

  /** SPKI PEM: what a judge needs to check the signatures. */
  publicKey(): { pem: string; keyId: string } | undefined {
    const key = this.privateKey();
    return key ? { pem: publicKeyPem(key), keyId: keyIdOf(key) } : undefined;
  }
}
