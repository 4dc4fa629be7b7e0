import { stringify } from 'lossless-json';
import { OPERATIONS } from './operations.js';
import { checkId } from './request-validation.js';
import type { CallOptions } from './types/common.types.js';
import { WeexApiError } from './weex-api.error.js';
import type { WeexCaller } from './weex-request-runner.js';

/** The body of uploadAiLog. `input` and `output` are JSON object text, sent as is; `orderId` is decimal digits. */
export interface UploadAiLogRequest {
  orderId?: string | null;
  stage: string;
  model: string;
  input: string;
  output: string;
  /** At most 1000 characters. */
  explanation: string;
}

/** The exchange's answer to an upload: `data` is `upload success` on success. */
export interface UploadAiLogResult {
  httpStatus: number;
  code?: string;
  msg?: string;
  data: string;
  /** True when the local simulator answered. */
  simulator: boolean;
}

export const UPLOAD_AI_LOG_PATHS = {
  v3: OPERATIONS.uploadAiLog.path,
  v2: OPERATIONS.uploadAiLogV2.path,
} as const;

/**
 * Builds the exact text that is signed and sent. `orderId` is written as a bare JSON integer with all its digits,
 * as WEEX's own clients send it; JSON.stringify of a JS number would round it.
 */
export function uploadAiLogBody(req: UploadAiLogRequest): string {
  if (req.orderId != null && !/^\d+$/.test(req.orderId)) throw new TypeError('orderId must be decimal digits');
  const orderId = req.orderId != null ? `"orderId":${req.orderId},` : '';
  const text = (value: string) => JSON.stringify(value);
  return `{${orderId}"stage":${text(req.stage)},"model":${text(req.model)},"input":${req.input},"output":${req.output},"explanation":${text(req.explanation)}}`;
}

/** The operation of an upload by API version: its weight is what an upload takes from the budget. */
export function uploadAiLogOperation(version: 'v3' | 'v2'): 'uploadAiLog' | 'uploadAiLogV2' {
  return version === 'v3' ? 'uploadAiLog' : 'uploadAiLogV2';
}

/** The upload through a caller: weight budget first, sent once. */
export async function uploadAiLogCall(
  caller: WeexCaller,
  req: UploadAiLogRequest,
  version: 'v3' | 'v2' = 'v3',
  options: CallOptions = {},
): Promise<UploadAiLogResult> {
  const operation = uploadAiLogOperation(version);
  checkId(operation, 'orderId', req.orderId ?? undefined);
  if ([...(req.explanation ?? '')].length > 1000) throw WeexApiError.invalidParameter(operation, 'explanation', 'must be at most 1000 characters');
  const res = await caller.call({ operation, body: uploadAiLogBody(req), ...options });
  // Only an explicit success code says the exchange has the log; a 2xx without one (`{}`, `{"success":false}`,
  // `true`) may come from anything between us and it.
  if (res.code === undefined) {
    const message = `HTTP ${res.httpStatus} without a success code: ${preview(res.data)}`;
    throw new WeexApiError('uncertain', operation, message, { httpStatus: res.httpStatus, simulator: res.simulator });
  }
  return { httpStatus: res.httpStatus, code: res.code, msg: res.msg, data: String(res.data), simulator: res.simulator };
}

/** The start of an unexpected answer, for the attempt's record. */
function preview(data: unknown): string {
  const text = stringify(data) ?? String(data);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
