import { type FieldError, ValidationFailedException } from '#libs/validation';
import type { CreateAiLogDto } from './create-ai-log.dto.js';
import { readAiLog } from './read-ai-log.js';

export const MAX_BATCH = 500;

export type BatchItemResult = { index: number; id: string; status: 'queued'; receivedAt: string } | { index: number; status: 'rejected'; errors: FieldError[] };

/**
 * Reads `{ "logs": [...] }`: the envelope must be right (else one 400), then each item is validated on its own, so one
 * bad item never rejects the others. Field paths are prefixed with the item's place: `logs.3.explanation`.
 * `mayHoldUnstorableText` as for readAiLog.
 */
export function readBatch(body: unknown, mayHoldUnstorableText = true): { valid: Array<{ index: number; dto: CreateAiLogDto }>; rejected: BatchItemResult[] } {
  const logs = (body as { logs?: unknown } | null)?.logs;
  const extra = body && typeof body === 'object' ? Object.keys(body).filter((key) => key !== 'logs') : [];
  if (!Array.isArray(logs) || logs.length === 0 || logs.length > MAX_BATCH || extra.length > 0) {
    throw new ValidationFailedException([
      { path: extra.length > 0 ? extra[0] : 'logs', message: `body must be { "logs": [...] } with 1 to ${MAX_BATCH} logs and nothing else` },
    ]);
  }
  const valid: Array<{ index: number; dto: CreateAiLogDto }> = [];
  const rejected: BatchItemResult[] = [];
  logs.forEach((item, index) => {
    try {
      valid.push({ index, dto: readAiLog(item, mayHoldUnstorableText) });
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      const errors = error.errors.map((e) => ({ path: `logs.${index}${e.path ? `.${e.path}` : ''}`, message: e.message }));
      rejected.push({ index, status: 'rejected', errors });
    }
  });
  return { valid, rejected };
}
