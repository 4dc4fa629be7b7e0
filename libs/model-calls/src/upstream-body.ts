import { pipeline, type Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';

/** Statuses whose answer has no body, which fetch does not decode. */
const NO_BODY = new Set([101, 204, 205, 304]);
const FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

/** The content codings fetch decoded, as the streams that decode them (deflate: zlib's, as RFC 9110 defines it). */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(FLUSH),
  'x-gzip': () => createGunzip(FLUSH),
  br: () => createBrotliDecompress(BROTLI_FLUSH),
  deflate: () => createInflate(FLUSH),
};

/**
 * The answer's body as the global fetch gave it: decoded when the provider compressed it although asked not to
 * (`accept-encoding: identity`), the codings applied last undone first; as it came when it names one fetch did not
 * know. Content-Encoding is not passed on to the agent, so the bytes passed on and recorded must be the decoded ones.
 */
export function decodedBody(method: string, answer: Dispatcher.ResponseData): Readable {
  const encoding = answer.headers['content-encoding'];
  if (encoding === undefined || method === 'HEAD' || method === 'CONNECT' || NO_BODY.has(answer.statusCode)) return answer.body;
  const codings = headerText(encoding)
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .reverse();
  if (!codings.every((coding) => Object.hasOwn(DECODERS, coding))) return answer.body;
  // pipeline destroys every stream when one fails or the reader stops, which aborts the call to the provider.
  return pipeline([answer.body, ...codings.map((coding) => DECODERS[coding]())], () => {}) as unknown as Readable;
}

/** A header's value as one text: a repeated header's values joined, as fetch's Headers joins them. */
export const headerText = (value: string | string[]): string => (Array.isArray(value) ? value.join(', ') : value);
