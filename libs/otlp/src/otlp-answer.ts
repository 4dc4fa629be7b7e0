import { OtlpMessages } from './otlp-schema.js';

/** The two encodings of OTLP/HTTP; an answer is in the request's. */
export type OtlpEncoding = 'protobuf' | 'json';

export const OTLP_CONTENT_TYPES: Record<OtlpEncoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

/**
 * The encoding to answer a request in: binary protobuf for `application/x-protobuf`, JSON for anything else (also a
 * content type we refuse: its Status is then text a person can read).
 */
export function answerEncoding(contentType: string | undefined): OtlpEncoding {
  return contentType?.split(';')[0].trim().toLowerCase() === OTLP_CONTENT_TYPES.protobuf ? 'protobuf' : 'json';
}

/** What the exporter learns of spans it should not send again: none (full success), or how many and why. */
export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** A span an export refused (not recorded, or recorded but making no AI log), and the sentence that says why. */
export interface RefusedSpan {
  traceId: string;
  spanId: string;
  message: string;
}

/** How many refusals the answer's error_message names; the count covers them all. */
const NAMED_REJECTIONS = 5;

/**
 * The partial_success of an export that refused these spans; none: full success. A span refused twice (its call, and
 * its decision) is one rejected span, with both sentences named.
 */
export function partialSuccessOf(refused: RefusedSpan[]): PartialSuccess | undefined {
  if (refused.length === 0) return undefined;
  const spans = new Set(refused.map((r) => `${r.traceId}/${r.spanId}`)).size;
  const named = refused
    .slice(0, NAMED_REJECTIONS)
    .map((r) => r.message)
    .join('; ');
  const more = refused.length > NAMED_REJECTIONS ? `; and ${refused.length - NAMED_REJECTIONS} more` : '';
  return { rejectedSpans: spans, errorMessage: `${spans} spans refused: ${named}${more}` };
}

/** ExportTraceServiceResponse: `partial_success` left unset on full success, as the spec requires. */
export function encodeExportResponse(encoding: OtlpEncoding, partial?: PartialSuccess): Buffer {
  if (encoding === 'json') {
    const body = partial ? { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } } : {};
    return Buffer.from(JSON.stringify(body));
  }
  const message = partial ? { partialSuccess: { rejectedSpans: partial.rejectedSpans, errorMessage: partial.errorMessage } } : {};
  return Buffer.from(OtlpMessages.response.encode(OtlpMessages.response.create(message)).finish());
}

/** gRPC's code for an HTTP status, for Status.code (which OTLP clients may log; the HTTP status is what they act on). */
const GRPC_CODES: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 405: 12, 408: 4, 413: 8, 415: 3, 429: 8, 500: 13, 502: 14, 503: 14, 504: 4 };

/** google.rpc.Status, the body of every OTLP/HTTP 4xx and 5xx. */
export function encodeStatus(encoding: OtlpEncoding, httpStatus: number, message: string): Buffer {
  const code = GRPC_CODES[httpStatus] ?? (httpStatus >= 500 ? 13 : 3);
  if (encoding === 'json') return Buffer.from(JSON.stringify({ code, message }));
  return Buffer.from(OtlpMessages.status.encode(OtlpMessages.status.create({ code, message })).finish());
}
