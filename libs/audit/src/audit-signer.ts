import type { KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { registerSecret } from '#libs/logging';
import { keyIdOf, newSigningKeyPem, publicKeyPem, readSigningKey } from '#libs/audit-chain';
import { configuredOrSandboxSecret } from '#libs/common';

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
      const text = configuredOrSandboxSecret(this.config.auditSigningKey, this.config, 'sandbox-audit-signing-key.pem', newSigningKeyPem);
      registerSecret(text);
      this.key = text ? readSigningKey(text) : null;
    }
    return this.key ?? undefined;
  }

  /** SPKI PEM: what a judge needs to check the signatures. */
  publicKey(): { pem: string; keyId: string } | undefined {
    const key = this.privateKey();
    return key ? { pem: publicKeyPem(key), keyId: keyIdOf(key) } : undefined;
  }
}
