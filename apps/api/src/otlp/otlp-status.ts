import { HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpExceptionFilter } from '#libs/http';
import { answerEncoding, encodeStatus, OTLP_CONTENT_TYPES } from '#libs/otlp';

/** What the OTLP route says of a Content-Type it does not take. */
const OTLP_MEDIA_TYPES = 'Content-Type must be application/x-protobuf or application/json';

/**
 * Sends an error of the OTLP route as OTLP/HTTP requires: google.rpc.Status in the request's encoding (binary protobuf
 * for application/x-protobuf, JSON otherwise), with the status, code and message the gateway's ErrorBody would carry.
 */
export function sendOtlpStatus(errors: HttpExceptionFilter, exception: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): FastifyReply {
  const body = errors.toBody(exception, String(request.id));
  // The ErrorBody's 415 says what other routes take; the OTLP route's own 415 (a Content-Encoding) says what it means.
  const own = exception instanceof HttpException ? (exception.getResponse() as { message?: unknown }).message : undefined;
  const message =
    body.code === 'PAYLOAD_TOO_LARGE'
      ? `OTLP_BODY_TOO_LARGE: the body is larger than OTLP_BODY_LIMIT_BYTES (${bodyLimit} bytes): export smaller batches`
      : body.statusCode === 415
        ? `${body.code}: ${body.code === 'UNSUPPORTED_MEDIA_TYPE' ? OTLP_MEDIA_TYPES : typeof own === 'string' ? own : body.message}`
        : `${body.code}: ${body.errors?.map((e) => e.message).join('; ') ?? body.message}`;
  const retryAfterS = (exception as { retryAfterS?: unknown } | undefined)?.retryAfterS;
  if (typeof retryAfterS === 'number') reply.header('retry-after', String(retryAfterS));
  const encoding = answerEncoding(request.headers['content-type']);
  return reply
    .status(body.statusCode)
    .type(OTLP_CONTENT_TYPES[encoding])
    .send(encodeStatus(encoding, body.statusCode, message));
}
