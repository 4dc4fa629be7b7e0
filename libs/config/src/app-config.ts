import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { FAILPOINTS } from './failpoints.js';

/** What an agent key may do: post logs, read the exchange account, cancel orders. */
export const AGENT_SCOPES = ['logs:write', 'exchange:read', 'exchange:cancel', 'audit:read'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];
const SCOPE = `(?:${AGENT_SCOPES.join('|')})`;
const SCOPE_LIST = new RegExp(`^\\s*${SCOPE}\\s*(?:,\\s*${SCOPE}\\s*)*$`);
const FAILPOINT = `(?:${FAILPOINTS.join('|')})`;
const FAILPOINT_LIST = new RegExp(`^${FAILPOINT}(?:,${FAILPOINT})*$`);

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
  /** How long a Redis command of the queue (but a worker's wait for jobs), the rate limiter or the budget may take. */
  @IsInt() @Min(10) @Max(60_000) redisCommandTimeoutMs: number;
  /** How long a process may take to stop (in-flight requests and uploads finished) before it gives up and exits 1. */
  @IsInt() @Min(1_000) shutdownTimeoutMs: number;
  /** How long one PostgreSQL statement of the API may run (ingest's commits aside) before PostgreSQL stops it: a 503. */
  @IsInt() @Min(100) @Max(3_600_000) apiStatementTimeoutMs: number;
  /**
   * The API's connections for the reads whose cost grows with a window (coverage, the report, stats): however many such
   * requests come at once, they wait for these, and the other reads and the readiness probe keep the rest.
   */
  @IsInt() @Min(1) @Max(100) apiWindowReadConnections: number;

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
  /** Unset: min(250, a tenth of the window). */
  @IsOptional() @IsInt() @Min(1) weexWeightGuardMs?: number;

  @IsOptional() @IsString() @MinLength(16) agentApiKey?: string;
  /** Comma-separated; each one of AGENT_SCOPES. */
  @Matches(SCOPE_LIST, { message: `agentApiKeyScopes must be a comma-separated list of ${AGENT_SCOPES.join(', ')}` })
  agentApiKeyScopes: string;
  @IsOptional() @IsString() @MinLength(16) adminToken?: string;
  /** Wrong admin tokens one client address may send within adminAuthWindowMs before it gets 429 until the window ends. */
  @IsInt() @Min(1) @Max(1_000_000) adminAuthMaxFailures: number;
  /** Whole seconds (rounded up): rate-limiter-flexible counts in seconds. */
  @IsInt() @Min(1_000) @Max(86_400_000) adminAuthWindowMs: number;
  /**
   * The proxies in front of the API whose X-Forwarded-For is believed (Fastify's trustProxy: addresses or CIDRs,
   * comma-separated); unset, the client address is the connection's.
   */
  @IsOptional() @Matches(/^[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*$/, { message: 'TRUST_PROXY must be addresses or CIDRs, comma-separated' }) trustProxy?: string;
  /** 32 bytes, base64 or hex: the AES-256-GCM key that encrypts account credentials at rest. */
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'secretsKey must be 32 bytes as 64 hex digits or 44 base64 characters' })
  secretsKey?: string;
  /** Ed25519 private key (PKCS#8 PEM, or base64 of its DER) that signs audit checkpoints. */
  @IsOptional() @IsString() @MinLength(40) auditSigningKey?: string;
  /**
   * What the checkpoints are of (c2sp.org/tlog-checkpoint origin `<AUDIT_ORIGIN>/<accountId>`) and the name of the
   * verifier key: a name this deployment owns, such as its public host.
   */
  @Matches(/^[\x21-\x2a\x2c-\x7e]{1,200}$/, { message: 'AUDIT_ORIGIN must be 1-200 printable ASCII characters without spaces or "+"' })
  auditOrigin: string;
  /**
   * The witnesses that cosign each checkpoint (c2sp.org/tlog-witness): `<submission URL prefix> <verifier key>`
   * entries separated by `;` or new lines. Each key is parsed at start (libs/audit's witness list).
   */
  @IsOptional()
  @Matches(/^\s*https?:\/\/\S+\s+\S+\+[0-9a-f]{8}\+\S+\s*([;\n]\s*(https?:\/\/\S+\s+\S+\+[0-9a-f]{8}\+\S+\s*)?)*$/, {
    message: 'AUDIT_WITNESSES must be entries of "<http(s) URL> <verifier key name+hexid+base64>" separated by ";" or new lines',
  })
  auditWitnesses?: string;
  @IsInt() @Min(100) @Max(60_000) auditWitnessTimeoutMs: number;
  @IsInt() @Min(1_000) auditCheckpointIntervalMs: number;
  /** How often the worker checks each account's stored chains (a run verifies what was added since, and a slice more). */
  @IsInt() @Min(1_000) auditCheckIntervalMs: number;
  /** New links per chain the periodic check verifies per minute (older ones re-verified and rows counted in proportion). */
  @IsInt() @Min(1_000) auditCheckLinksPerMin: number;
  /** Logs (each request to other endpoints counts one) per minute per agent key (a key may have its own); 0: off. */
  @IsInt() @Min(0) agentRateLimitPerMin: number;
  /** Bytes of request bodies the API parses and holds at once; a body beyond waits, unread by the parser (BodyBytesBudget). */
  @IsInt() @Min(65_536) bodyBytesInFlight: number;

  /** The OpenAI-compatible provider the default account's model calls go to (`https://api.openai.com/v1`). */
  @IsOptional()
  @IsUrl({ ...url, disallow_auth: true }, { message: 'LLM_UPSTREAM_URL must be an http(s) URL without user:password (the key goes in LLM_UPSTREAM_KEY)' })
  @Matches(/^[^?#]*$/, { message: 'LLM_UPSTREAM_URL must have no query or fragment: the call’s path is appended to it' })
  llmUpstreamUrl?: string;
  /** The default account's key at that provider: sent there as a bearer token, never answered or logged. */
  @IsOptional() @IsString() @MinLength(1) llmUpstreamKey?: string;
  /** How long one model call through the gateway may take, from the request to the answer's last byte. */
  @IsInt() @Min(1_000) @Max(3_600_000) llmUpstreamTimeoutMs: number;
  /** The largest request body the model-call proxy takes (images in a chat request make them large). */
  @IsInt() @Min(1_024) @Max(67_108_864) llmBodyLimitBytes: number;
  /** The largest answer the proxy records and passes on; a longer one is cut off with LLM_ANSWER_TOO_LARGE. */
  @IsInt() @Min(1_024) @Max(268_435_456) llmAnswerLimitBytes: number;

  /** The largest body POST /otlp/v1/traces takes as sent (gzipped or not): 413 beyond. */
  @IsInt() @Min(1_024) @Max(67_108_864) otlpBodyLimitBytes: number;
  /** The most bytes a gzipped OTLP body may inflate to: inflating stops there, with a 413 (a gzip bomb costs no more). */
  @IsInt() @Min(1_024) @Max(268_435_456) otlpDecompressedLimitBytes: number;
  /** The most spans one OTLP export may hold (an SDK's batch is 512 by default): 400 beyond. */
  @IsInt() @Min(1) @Max(100_000) otlpMaxSpansPerRequest: number;
  /** The most values (fields on the wire; JSON objects, arrays and members) one export may hold: 400 beyond. */
  @IsInt() @Min(1_000) @Max(100_000_000) otlpMaxValuesPerRequest: number;
  /** The largest value of one attribute of a model-call span (a prompt, an answer): the span is refused beyond. */
  @IsInt() @Min(1_024) @Max(67_108_864) otlpAttributeValueLimitBytes: number;

  @IsInt() @Min(0) @Max(65535) simPort: number;
  @IsInt() @Min(0) @Max(65535) simSpotPort: number;
  @IsOptional() @IsUrl(url) simUrl?: string;
  @IsOptional() @IsUrl(url) simSpotUrl?: string;
  @IsOptional() @IsString() simSeedFile?: string;

  /** Uploads in flight per account a worker drains. */
  @IsInt() @Min(1) @Max(256) uploadConcurrency: number;
  /** Accounts one worker process drains at once. */
  @IsInt() @Min(1) @Max(256) uploadAccountConcurrency: number;
  @IsInt() @Min(1_000) uploadRetryHorizonMs: number;
  @IsInt() @Min(1) uploadBackoffMs: number;
  @IsInt() @Min(1) uploadBackoffMaxMs: number;
  /** The lease of a claimed log (renewed while its upload is in flight) and of a drain's job lock: how soon a dead worker's work is taken over. */
  @IsInt() @Min(1_000) @Max(600_000) uploadClaimMs: number;
  @IsInt() @Min(100) relayIntervalMs: number;
  /** How long a decision span that came without its trace's calls waits for the trace to be quiet before its AI log is made. */
  @IsInt() @Min(100) @Max(600_000) traceDecisionSettleMs: number;
  /** How often each worker checks whether the exchange answers an account whose uploads are held for HTTP 521. */
  @IsInt() @Min(100) uploadHoldProbeMs: number;
  @IsInt() @Min(86_400_000) idempotencyKeyTtlMs: number;
  /** How often the workers sync orders, plan orders and trades of every account into the evidence tables; 0: off. */
  @IsInt() @ValidateIf((c: AppConfig) => c.evidenceSyncIntervalMs !== 0) @Min(1_000) evidenceSyncIntervalMs: number;
  /** How far back the first sync of an account reaches; WEEX serves trades at most 365 days back. */
  @IsInt() @Min(1) @Max(365) evidenceSyncLookbackDays: number;

  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose']) logLevel: string;
  /** Test-only: comma-separated FAILPOINTS at which the process kills itself. */
  @IsOptional()
  @Matches(FAILPOINT_LIST, { message: `gatewayFailpoints must be a comma-separated list of ${FAILPOINTS.join(', ')}` })
  gatewayFailpoints?: string;
}
