import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';

/** What an agent key may do: post logs, read the exchange account, cancel orders. */
export const AGENT_SCOPES = ['logs:write', 'exchange:read', 'exchange:cancel'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];
const SCOPE = `(?:${AGENT_SCOPES.join('|')})`;
const SCOPE_LIST = new RegExp(`^\\s*${SCOPE}\\s*(?:,\\s*${SCOPE}\\s*)*$`);

const url = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const pgUrl = { require_tld: false, require_protocol: true, protocols: ['postgres', 'postgresql'] };
const redisUrl = { require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] };

/**
 * Every setting of the service, validated once at boot. Only `loadConfig` reads the environment; everything else gets
 * this class by injection. Each property names its variable and default in `ENV_VARIABLES`.
 */
export class AppConfig {
  @IsInt() @Min(0) @Max(65535) port: number;
  @IsString() host: string;
  @IsString() dataDir: string;
  @IsOptional() @IsUrl(pgUrl) databaseUrl?: string;
  @IsOptional() @IsUrl(redisUrl) redisUrl?: string;
  @IsString() queuePrefix: string;

  @IsOptional() @IsString() @MinLength(1) weexApiKey?: string;
  @IsOptional() @IsString() @MinLength(1) weexApiSecret?: string;
  @IsOptional() @IsString() @MinLength(1) weexApiPassphrase?: string;
  @IsOptional() @IsUrl(url) weexBaseUrl?: string;
  @IsOptional() @IsUrl(url) weexSpotBaseUrl?: string;
  @IsIn(['v3', 'v2']) weexUploadApiVersion: 'v3' | 'v2';
  @IsInt() @Min(100) weexTimeoutMs: number;
  @IsInt() @Min(1) weexIpWeightLimit: number;
  @IsInt() @Min(1) weexUidWeightLimit: number;
  @IsInt() @Min(100) weexWeightWindowMs: number;

  @IsOptional() @IsString() @MinLength(16) agentApiKey?: string;
  /** Comma-separated; each one of AGENT_SCOPES. */
  @Matches(SCOPE_LIST, { message: `agentApiKeyScopes must be a comma-separated list of ${AGENT_SCOPES.join(', ')}` })
  agentApiKeyScopes: string;
  @IsOptional() @IsString() @MinLength(16) adminToken?: string;
  /** 32 bytes, base64 or hex: the AES-256-GCM key that encrypts account credentials at rest. */
  @IsOptional() @Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'secretsKey must be 32 bytes as 64 hex digits or 44 base64 characters' })
  secretsKey?: string;
  /** Ed25519 private key (PKCS#8 PEM, or base64 of its DER) that signs audit checkpoints. */
  @IsOptional() @IsString() @MinLength(40) auditSigningKey?: string;
  @IsInt() @Min(1_000) auditCheckpointIntervalMs: number;
  /** Requests per minute per agent key (a key may have its own); 0 turns the limit off. */
  @IsInt() @Min(0) agentRateLimitPerMin: number;

  @IsInt() @Min(0) @Max(65535) simPort: number;
  @IsInt() @Min(0) @Max(65535) simSpotPort: number;
  @IsOptional() @IsUrl(url) simUrl?: string;
  @IsOptional() @IsUrl(url) simSpotUrl?: string;
  @IsOptional() @IsString() simSeedFile?: string;

  @IsInt() @Min(1) @Max(256) uploadConcurrency: number;
  @IsInt() @Min(1_000) uploadRetryHorizonMs: number;
  @IsInt() @Min(1) uploadBackoffMs: number;
  @IsInt() @Min(1) uploadBackoffMaxMs: number;
  @IsInt() @Min(1_000) uploadClaimMs: number;
  @IsInt() @Min(100) relayIntervalMs: number;
  @IsInt() @Min(86_400_000) idempotencyKeyTtlMs: number;
  /** How often each worker syncs orders, plan orders and trades of every account into the evidence tables. */
  @IsInt() @Min(1_000) evidenceSyncIntervalMs: number;
  /** How far back the first sync of an account reaches; WEEX serves trades at most 365 days back. */
  @IsInt() @Min(1) @Max(365) evidenceSyncLookbackDays: number;

  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose']) logLevel: string;
}
