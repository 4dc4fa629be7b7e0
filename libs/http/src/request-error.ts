import type { ErrorBody } from './error-body.js';

/** What a 415 says, whichever layer raised it (Fastify's parser, or Nest's exception for it). */
export const UNSUPPORTED_MEDIA_TYPE = 'Content-Type must be application/json';

const CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'EMPTY_BODY',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_CONTENT_LENGTH',
};

/**
 * The ErrorBody for an error raised while reading the request (Fastify's body limit, content type, our JSON parser),
 * which carries a 4xx `statusCode`; undefined for anything else.
 */
export function requestErrorBody(error: unknown, requestId: string): ErrorBody | undefined {
  const { statusCode, code, message } = (error ?? {}) as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode > 499) return undefined;
  const name = typeof code === 'string' ? (CODES[code] ?? (code.startsWith('FST_') ? 'BAD_REQUEST' : code)) : 'BAD_REQUEST';
  const said = name === 'UNSUPPORTED_MEDIA_TYPE' ? UNSUPPORTED_MEDIA_TYPE : String(message ?? 'Bad request');
  return { statusCode, code: name, message: said, requestId };
}

export function internalErrorBody(requestId: string, errorId?: string): ErrorBody {
  return { statusCode: 500, code: 'INTERNAL_ERROR', message: 'Internal error', requestId, ...(errorId ? { errorId } : {}) };
}
