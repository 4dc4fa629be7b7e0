// The gateway's answers as the console reads them (apps/api/src/*.responses.ts describe them in full).

export type Role = 'team' | 'judge' | 'admin';

export interface Session {
  role: Role;
  /** The account a team or judge session reads; null for an admin, who picks one. */
  accountId: string | null;
  label: string;
  expiresAt: string;
}

export const STATUSES = ['queued', 'uploading', 'uploaded', 'retrying', 'failed'] as const;
export type StatusCounts = Record<(typeof STATUSES)[number], number>;

export interface LogSummary {
  id: string;
  accountId: string;
  status: string;
  orderId: string | null;
  stage: string;
  model: string;
  explanation: string;
  attemptCount: number;
  lastError: string | null;
  receivedAt: string;
  nextAttemptAt: string;
  uploadedAt: string | null;
}

export interface LogPage {
  data: LogSummary[];
  nextCursor: string | null;
}

export interface Receipt {
  at: string;
  finishedAt: string;
  target: string;
  httpStatus: number | null;
  exchangeCode: string | null;
  exchangeMessage: string | null;
}

export interface Attempt extends Receipt {
  latencyMs: number;
  outcome: string;
}

export interface LogDetail {
  id: string;
  status: string;
  target: string;
  orderId: string | null;
  stage: string;
  model: string;
  explanation: string;
  receivedAt: string;
  uploadedAt: string | null;
  lastError: string | null;
  chain: { seq: string; prevHash: string; hash: string } | null;
  attempts: Attempt[];
  /** The model calls the log names (GET /v1/model-calls/:id), in its order. */
  modelCallIds: string[];
}

/** GET /v1/model-calls/:id, as far as the console shows it. */
export interface ModelCallSummary {
  id: string;
  /** `otlp`: a span an agent's tracer exported; it has no proxy path (null). */
  source: 'proxy' | 'otlp';
  path: string | null;
  requestedModel: string | null;
  answeredModel: string | null;
  httpStatus: number | null;
  outcome: string;
  startedAt: string;
  usage: { promptTokens: number | null; completionTokens: number | null; totalTokens: number | null };
  chain: { seq: string; hash: string };
}

export interface Fill {
  id: string;
  orderId: string;
  symbol: string;
  side: string;
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  time: number;
}

export interface Order {
  orderId: string;
  symbol: string;
  side: string;
  type: string;
  status: string;
  origQty: string;
  executedQty: string;
  avgPrice: string;
  time: number;
}

export interface OrderEvidence {
  orderId: string;
  coverage: 'covered' | 'pending' | 'failed' | 'missing';
  order: Order | null;
  fills: Fill[];
  planOrder: { algoId: string; orderType: string; algoStatus: string; actualOrderId: string } | null;
  planOrderLink: string | null;
  logs: { id: string; links: string; orderId: string; status: string; stage: string; model: string; receivedAt: string; receipt: Receipt | null }[];
}

export interface Coverage {
  from: string;
  to: string;
  orders: { total: number; withFills: number; covered: number; uncovered: number; pending: number; failed: number; missing: number };
  fills: { total: number; covered: number; uncovered: number };
  uncoveredOrders: { orderId: string; symbol: string; side: string; type: string; status: string; time: string; filled: boolean; reason: string }[];
  uncoveredOrdersTruncated: boolean;
  unmatchedLogs: { id: string; orderId: string; status: string; receivedAt: string }[];
  unmatchedLogsTotal: number;
  unmatchedLogsTruncated: boolean;
  sync: { syncedUntil: string | null; coversWindow: boolean };
}

export interface Account {
  id: string;
  name: string;
  uploadsPausedAt: string | null;
}

export interface AccountStatus {
  accountId: string;
  name: string;
  paused: boolean;
  pausedAt: string | null;
  pauseReason: string | null;
  logs: StatusCounts;
  /** The API process's view of the account's weight budgets (every process's, with REDIS_URL); null with weightBudgetError. */
  weightBudget: BudgetUsage | null;
  weightBudgetError?: string;
  clockOffsetMs: number | null;
  recentErrors: { logId: string; at: string; outcome: string; httpStatus: number | null; exchangeCode: string | null; exchangeMessage: string | null }[];
  evidenceSync: { stream: string; syncedUntil: string | null; ok: boolean; lastError: string | null }[];
}

/** One weight budget's span (a window and its guard, ending now), as libs/weex-client's WindowUsage. */
export interface WindowUsage {
  limit: number;
  used: number;
  /** Until the span's oldest weight leaves it (0: nothing taken). */
  msBeforeReset: number;
  /** Until a pause after the exchange's 429 ends; 0 when not paused. */
  pausedMs: number;
}

/** The budget of the deployment's IP (shared by every account) and the account's own (its UID). */
export interface BudgetUsage {
  ip: WindowUsage;
  uid: WindowUsage;
}

/** GET /v1/audit/head, as far as the console shows it. */
export interface ChainHead {
  seq: string;
  hash: string;
  at: string;
  /** The server's check of the stored chain, with the table's ends compared with the head. */
  check: { ok: boolean; checkedAt: string | null; verifiedSeq: string; broken: { chain: string; seq: string | null; reason: string; since?: string } | null };
  witnesses: WitnessState[];
}

/** What one witness of AUDIT_WITNESSES last did with the account's checkpoints. */
export interface WitnessState {
  witness: string;
  /** The largest tree it cosigned (0: none yet), and when. */
  cosignedSize: string;
  cosignedLatest: boolean;
  cosignedAt: string | null;
  outcome: 'cosigned' | 'refused' | 'unreachable' | null;
  error: string | null;
  attemptedAt: string | null;
}

export interface QueueOverview {
  queue: string;
  backend: string;
  jobs: Record<string, number> | null;
  jobsError?: string;
  paused: boolean | null;
  logs: StatusCounts;
}

export interface AgentKey {
  id: string;
  accountId: string;
  label: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
}

/** A witness of AUDIT_WITNESSES as GET /v1/audit/witnesses lists it. */
export interface WitnessKey {
  /** `<name>+<hex key id>`: the name and key id its cosignature lines carry. */
  witness: string;
  verifierKey: string;
}
