import type { AppConfig } from './app-config.js';

type Kind = 'string' | 'int';

interface EnvVariable {
  key: keyof AppConfig;
  kind: Kind;
  /** Applied when the variable is unset or empty; undefined means "not set". */
  default?: string | number;
}

/** The environment variables the service reads, with their defaults. The README's configuration table mirrors this. */
export const ENV_VARIABLES: Record<string, EnvVariable> = {
  PORT: { key: 'port', kind: 'int', default: 3000 },
  HOST: { key: 'host', kind: 'string', default: '127.0.0.1' },
  DATA_DIR: { key: 'dataDir', kind: 'string', default: './.data' },
  DATABASE_URL: { key: 'databaseUrl', kind: 'string' },
  REDIS_URL: { key: 'redisUrl', kind: 'string' },
  QUEUE_PREFIX: { key: 'queuePrefix', kind: 'string', default: 'gateway' },
  REDIS_COMMAND_TIMEOUT_MS: { key: 'redisCommandTimeoutMs', kind: 'int', default: 500 },
  SHUTDOWN_TIMEOUT_MS: { key: 'shutdownTimeoutMs', kind: 'int', default: 30_000 },
  API_STATEMENT_TIMEOUT_MS: { key: 'apiStatementTimeoutMs', kind: 'int', default: 30_000 },
  API_WINDOW_READ_CONNECTIONS: { key: 'apiWindowReadConnections', kind: 'int', default: 2 },
  WEEX_API_KEY: { key: 'weexApiKey', kind: 'string' },
  WEEX_API_SECRET: { key: 'weexApiSecret', kind: 'string' },
  WEEX_API_PASSPHRASE: { key: 'weexApiPassphrase', kind: 'string' },
  WEEX_BASE_URL: { key: 'weexBaseUrl', kind: 'string' },
  WEEX_SPOT_BASE_URL: { key: 'weexSpotBaseUrl', kind: 'string' },
  WEEX_UPLOAD_API_VERSION: { key: 'weexUploadApiVersion', kind: 'string', default: 'v3' },
  WEEX_TIMEOUT_MS: { key: 'weexTimeoutMs', kind: 'int', default: 10_000 },
  WEEX_IP_WEIGHT_LIMIT: { key: 'weexIpWeightLimit', kind: 'int', default: 500 },
  WEEX_UID_WEIGHT_LIMIT: { key: 'weexUidWeightLimit', kind: 'int', default: 500 },
  WEEX_WEIGHT_WINDOW_MS: { key: 'weexWeightWindowMs', kind: 'int', default: 10_000 },
  WEEX_WEIGHT_GUARD_MS: { key: 'weexWeightGuardMs', kind: 'int' },
  AGENT_API_KEY: { key: 'agentApiKey', kind: 'string' },
  AGENT_API_KEY_SCOPES: { key: 'agentApiKeyScopes', kind: 'string', default: 'logs:write,exchange:read,exchange:cancel' },
  ADMIN_TOKEN: { key: 'adminToken', kind: 'string' },
  ADMIN_AUTH_MAX_FAILURES: { key: 'adminAuthMaxFailures', kind: 'int', default: 10 },
  ADMIN_AUTH_WINDOW_MS: { key: 'adminAuthWindowMs', kind: 'int', default: 60_000 },
  TRUST_PROXY: { key: 'trustProxy', kind: 'string' },
  SECRETS_KEY: { key: 'secretsKey', kind: 'string' },
  AUDIT_SIGNING_KEY: { key: 'auditSigningKey', kind: 'string' },
  AUDIT_ORIGIN: { key: 'auditOrigin', kind: 'string', default: 'weex-ai-log-gateway.local' },
  AUDIT_WITNESSES: { key: 'auditWitnesses', kind: 'string' },
  AUDIT_WITNESS_TIMEOUT_MS: { key: 'auditWitnessTimeoutMs', kind: 'int', default: 5_000 },
  AUDIT_CHECKPOINT_INTERVAL_MS: { key: 'auditCheckpointIntervalMs', kind: 'int', default: 3_600_000 },
  AUDIT_CHECK_INTERVAL_MS: { key: 'auditCheckIntervalMs', kind: 'int', default: 10_000 },
  AUDIT_CHECK_LINKS_PER_MIN: { key: 'auditCheckLinksPerMin', kind: 'int', default: 50_000 },
  AGENT_RATE_LIMIT_PER_MIN: { key: 'agentRateLimitPerMin', kind: 'int', default: 6_000 },
  BODY_BYTES_IN_FLIGHT: { key: 'bodyBytesInFlight', kind: 'int', default: 8_388_608 },
  LLM_UPSTREAM_URL: { key: 'llmUpstreamUrl', kind: 'string' },
  LLM_UPSTREAM_KEY: { key: 'llmUpstreamKey', kind: 'string' },
  LLM_UPSTREAM_TIMEOUT_MS: { key: 'llmUpstreamTimeoutMs', kind: 'int', default: 600_000 },
  LLM_BODY_LIMIT_BYTES: { key: 'llmBodyLimitBytes', kind: 'int', default: 4_194_304 },
  LLM_ANSWER_LIMIT_BYTES: { key: 'llmAnswerLimitBytes', kind: 'int', default: 4_194_304 },
  OTLP_BODY_LIMIT_BYTES: { key: 'otlpBodyLimitBytes', kind: 'int', default: 4_194_304 },
  OTLP_DECOMPRESSED_LIMIT_BYTES: { key: 'otlpDecompressedLimitBytes', kind: 'int', default: 16_777_216 },
  OTLP_MAX_SPANS_PER_REQUEST: { key: 'otlpMaxSpansPerRequest', kind: 'int', default: 5_000 },
  OTLP_MAX_VALUES_PER_REQUEST: { key: 'otlpMaxValuesPerRequest', kind: 'int', default: 500_000 },
  OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES: { key: 'otlpAttributeValueLimitBytes', kind: 'int', default: 1_048_576 },
  SIM_PORT: { key: 'simPort', kind: 'int', default: 3100 },
  SIM_SPOT_PORT: { key: 'simSpotPort', kind: 'int', default: 3101 },
  SIM_URL: { key: 'simUrl', kind: 'string' },
  SIM_SPOT_URL: { key: 'simSpotUrl', kind: 'string' },
  SIM_SEED_FILE: { key: 'simSeedFile', kind: 'string' },
  UPLOAD_CONCURRENCY: { key: 'uploadConcurrency', kind: 'int', default: 8 },
  UPLOAD_ACCOUNT_CONCURRENCY: { key: 'uploadAccountConcurrency', kind: 'int', default: 16 },
  UPLOAD_RETRY_HORIZON_MS: { key: 'uploadRetryHorizonMs', kind: 'int', default: 86_400_000 },
  UPLOAD_BACKOFF_MS: { key: 'uploadBackoffMs', kind: 'int', default: 1_000 },
  UPLOAD_BACKOFF_MAX_MS: { key: 'uploadBackoffMaxMs', kind: 'int', default: 300_000 },
  UPLOAD_CLAIM_MS: { key: 'uploadClaimMs', kind: 'int', default: 5_000 },
  RELAY_INTERVAL_MS: { key: 'relayIntervalMs', kind: 'int', default: 2_000 },
  TRACE_DECISION_SETTLE_MS: { key: 'traceDecisionSettleMs', kind: 'int', default: 2_000 },
  UPLOAD_HOLD_PROBE_MS: { key: 'uploadHoldProbeMs', kind: 'int', default: 60_000 },
  IDEMPOTENCY_KEY_TTL_MS: { key: 'idempotencyKeyTtlMs', kind: 'int', default: 86_400_000 },
  EVIDENCE_SYNC_INTERVAL_MS: { key: 'evidenceSyncIntervalMs', kind: 'int', default: 60_000 },
  EVIDENCE_SYNC_LOOKBACK_DAYS: { key: 'evidenceSyncLookbackDays', kind: 'int', default: 90 },
  LOG_LEVEL: { key: 'logLevel', kind: 'string', default: 'log' },
  GATEWAY_FAILPOINTS: { key: 'gatewayFailpoints', kind: 'string' },
};

/** Converts one variable's text; returns the text itself when it is not of the kind, so validation reports it. */
export function convert(kind: Kind, text: string): unknown {
  if (kind === 'int') return /^-?\d+$/.test(text) ? Number(text) : text;
  return text;
}
