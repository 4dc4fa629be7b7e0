import { parseJson } from '#libs/common';
import type { AiLogWithAttempts } from './ai-log.repository.js';

export interface AttemptView {
  at: string;
  finishedAt: string;
  latencyMs: number;
  target: string;
  outcome: string;
  httpStatus: number | null;
  exchangeCode: string | null;
  exchangeMessage: string | null;
}

export interface AiLogView {
  id: string;
  status: string;
  /** Who the uploads go to: `simulator` (sandbox mode) or `exchange` (real WEEX). */
  target: string;
  orderId: string | null;
  stage: string;
  model: string;
  input: unknown;
  output: unknown;
  explanation: string;
  /** The model calls the log names (GET /v1/model-calls/:id), in its order; [] for none. */
  modelCallIds: string[];
  receivedAt: string;
  uploadedAt: string | null;
  lastError: string | null;
  /** The log's place in its account's audit hash chain (null for a log accepted before the chain existed). */
  chain: { seq: string; prevHash: string; hash: string } | null;
  attempts: AttemptView[];
}

/** What an agent sees of its log. IDs are strings; input and output come back with every digit they had. */
export function toAiLogView(log: AiLogWithAttempts, defaultTarget: string): AiLogView {
  const last = log.attempts.at(-1);
  return {
    id: log.id,
    status: log.status,
    target: last?.target ?? defaultTarget,
    orderId: log.orderId === null ? null : log.orderId.toString(),
    stage: log.stage,
    model: log.model,
    input: parseJson(log.input),
    output: parseJson(log.output),
    explanation: log.explanation,
    modelCallIds: log.modelCallIds,
    receivedAt: log.receivedAt.toISOString(),
    uploadedAt: log.uploadedAt?.toISOString() ?? null,
    lastError: log.lastError,
    chain: log.seq === null ? null : { seq: log.seq.toString(), prevHash: log.prevHash!, hash: log.hash! },
    attempts: log.attempts.map((a) => ({
      at: a.startedAt.toISOString(),
      finishedAt: a.finishedAt.toISOString(),
      latencyMs: a.latencyMs,
      target: a.target,
      outcome: a.outcome,
      httpStatus: a.httpStatus,
      exchangeCode: a.exchangeCode,
      exchangeMessage: a.exchangeMessage,
    })),
  };
}
