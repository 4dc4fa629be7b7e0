import { randomBytes } from 'node:crypto';
import { ConflictException, Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { registerSecret } from '#libs/logging';
import { open, seal, secretsKeyFrom } from './secret-box.js';
import { configuredOrSandboxSecret } from '#libs/common';

export interface StoredCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/**
 * Encrypts account credentials for the database and decrypts them for the exchange clients, with SECRETS_KEY; in
 * sandbox mode without it, with a key made for the data directory. Outside sandbox mode without SECRETS_KEY no
 * account with credentials can be added (the default account takes its credentials from the environment anyway).
 */
@Injectable()
export class AccountSecrets {
  private key?: Buffer | null;

  constructor(private readonly config: GatewayConfig) {}

  seal(accountId: string, credentials: StoredCredentials): string {
    const key = this.secretsKey();
    if (!key) throw new ConflictException('set SECRETS_KEY (32 bytes, hex or base64) to store account credentials');
    const { apiKey, secret, passphrase } = credentials;
    for (const value of [apiKey, secret, passphrase]) registerSecret(value);
    return seal(key, JSON.stringify({ apiKey, secret, passphrase }), accountId);
  }

  open(accountId: string, sealed: string): StoredCredentials {
    const key = this.secretsKey();
    if (!key) throw new Error('SECRETS_KEY is not set, so stored credentials cannot be read');
    return JSON.parse(open(key, sealed, accountId)) as StoredCredentials;
  }

  /** The account's key at its model provider, bound to `<accountId>/llm` so that it never opens as WEEX credentials. */
  sealLlmKey(accountId: string, apiKey: string): string {
    const key = this.secretsKey();
    if (!key) throw new ConflictException('set SECRETS_KEY (32 bytes, hex or base64) to store a model provider key');
    registerSecret(apiKey);
    return seal(key, apiKey, `${accountId}/llm`);
  }

  openLlmKey(accountId: string, sealed: string): string {
    const key = this.secretsKey();
    if (!key) throw new Error('SECRETS_KEY is not set, so stored model provider keys cannot be read');
    const apiKey = open(key, sealed, `${accountId}/llm`);
    registerSecret(apiKey); // another process sealed it: this one's logger learns it here
    return apiKey;
  }

  private secretsKey(): Buffer | undefined {
    if (this.key === undefined) {
      const text = configuredOrSandboxSecret(this.config.secretsKey, this.config, 'sandbox-secrets-key', () => randomBytes(32).toString('hex'));
      this.key = text ? secretsKeyFrom(text) : null;
    }
    return this.key ?? undefined;
  }
}
