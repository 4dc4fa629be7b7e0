import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { registerSecret } from '#libs/logging';
import { configuredOrSandboxSecret } from '#libs/common';

/**
 * The admin token in force: ADMIN_TOKEN, or in sandbox mode one made for the data directory (printed at start, like
 * the sandbox agent key). Outside sandbox mode without ADMIN_TOKEN there is none, and admin endpoints stay shut.
 */
@Injectable()
export class AdminTokenService {
  private cached?: string | null;

  constructor(private readonly config: GatewayConfig) {}

  token(): string | undefined {
    if (this.cached === undefined) {
      this.cached =
        configuredOrSandboxSecret(this.config.adminToken, this.config, 'sandbox-admin-token', () => `adm_${randomBytes(24).toString('base64url')}`) ?? null;
    }
    registerSecret(this.cached);
    return this.cached ?? undefined;
  }

  /** The token to print at start: only one this service made, never the ADMIN_TOKEN the operator already has. */
  sandboxToken(): string | undefined {
    return this.config.adminToken ? undefined : this.token();
  }
}
