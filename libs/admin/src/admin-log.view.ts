import { type AdminLogRow, type AiLogView, type AiLogWithAttempts, toAiLogView } from '#libs/ai-log';

/** A log in the admin list. IDs are strings. */
export interface AdminLogSummary {
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

/** One log's whole history: the agent's view of it, plus what only admins see. */
export interface AdminLogView extends AiLogView {
  accountId: string;
  attemptCount: number;
  nextAttemptAt: string;
}

export function toAdminLogSummary(row: AdminLogRow): AdminLogSummary {
  return {
    id: row.id,
    accountId: row.accountId,
    status: row.status,
    orderId: row.orderId === null ? null : row.orderId.toString(),
    stage: row.stage,
    model: row.model,
    explanation: row.explanation,
    attemptCount: row.attemptCount,
    lastError: row.lastError,
    receivedAt: row.receivedAt.toISOString(),
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    uploadedAt: row.uploadedAt?.toISOString() ?? null,
  };
}

export function toAdminLogView(log: AiLogWithAttempts, defaultTarget: string): AdminLogView {
  return {
    ...toAiLogView(log, defaultTarget),
    accountId: log.accountId,
    attemptCount: log.attemptCount,
    nextAttemptAt: log.nextAttemptAt.toISOString(),
  };
}
