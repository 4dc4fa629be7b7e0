import { AppConfig } from './app-config.js';
import type { Failpoint } from './failpoints.js';
import type { WeexCredentials } from '#libs/weex-client';

/** Credentials of the simulator's default account; used in sandbox mode, never against the real exchange. */
export const SANDBOX_CREDENTIALS: Readonly<WeexCredentials> = Object.freeze({
  apiKey: 'sandbox-api-key',
  secret: 'sandbox-api-secret',
  passphrase: 'sandbox-passphrase',
});

export const REAL_WEEX_BASE_URL = 'https://api-contract.weex.com';
export const REAL_WEEX_SPOT_BASE_URL = 'https://api-spot.weex.com';

/** The one credentials type, the exchange client's. */
export type { WeexCredentials };

/**
 * AppConfig plus what follows from it: the mode, the exchange endpoints and the credentials in force.
 * Abstract so that it serves as the injection token: `constructor(private readonly config: GatewayConfig)`.
 */
export abstract class GatewayConfig extends AppConfig {
  /** No WEEX credentials: uploads go to the local simulator with the sandbox account. */
  declare sandbox: boolean;
  /** No DATABASE_URL: PostgreSQL is PGlite under DATA_DIR. */
  declare embeddedDatabase: boolean;
  declare queueBackend: 'redis' | 'postgres';
  declare weex: { baseUrl: string; spotBaseUrl: string; credentials: WeexCredentials };
  /** Test-only: the failpoints GATEWAY_FAILPOINTS names (see failpoints.ts); empty in production. */
  declare failpoints: ReadonlySet<Failpoint>;
}

export function resolveConfig(config: AppConfig): GatewayConfig {
  const sandbox = !config.weexApiKey;
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const credentials = sandbox
    ? { ...SANDBOX_CREDENTIALS }
    : { apiKey: config.weexApiKey!, secret: config.weexApiSecret!, passphrase: config.weexApiPassphrase! };
  const resolved = Object.assign(config, {
    sandbox,
    embeddedDatabase: !config.databaseUrl,
    queueBackend: config.redisUrl ? ('redis' as const) : ('postgres' as const),
    failpoints: new Set((config.gatewayFailpoints?.split(',') ?? []) as Failpoint[]),
    weex: {
      // Sandbox mode never falls back to the real exchange: only an explicit WEEX_BASE_URL leaves the simulator.
      baseUrl: config.weexBaseUrl ?? (sandbox ? (config.simUrl ?? local(config.simPort)) : REAL_WEEX_BASE_URL),
      spotBaseUrl: config.weexSpotBaseUrl ?? (sandbox ? (config.simSpotUrl ?? local(config.simSpotPort)) : REAL_WEEX_SPOT_BASE_URL),
      credentials,
    },
  });
  Object.setPrototypeOf(resolved, GatewayConfig.prototype);
  return resolved as GatewayConfig;
}

/** The configured values this process must never write to a log or an answer. */
export function secretValues(config: AppConfig): Array<string | undefined> {
  return [
    config.weexApiKey,
    config.weexApiSecret,
    config.weexApiPassphrase,
    config.adminToken,
    config.agentApiKey,
    config.secretsKey,
    config.auditSigningKey,
    config.llmUpstreamKey,
  ];
}
