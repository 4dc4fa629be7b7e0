/** Why a request's spans were refused whole: the HTTP status (400 bad data, 413 too large), a code and the rule. */
export type OtlpRequestErrorCode = 'OTLP_UNDECODABLE' | 'OTLP_TOO_MANY_SPANS' | 'OTLP_TOO_MANY_VALUES' | 'OTLP_BODY_TOO_LARGE' | 'OTLP_UNSUPPORTED_ENCODING';

const STATUS: Record<OtlpRequestErrorCode, number> = {
  OTLP_UNDECODABLE: 400,
  OTLP_TOO_MANY_SPANS: 400,
  OTLP_TOO_MANY_VALUES: 400,
  OTLP_BODY_TOO_LARGE: 413,
  OTLP_UNSUPPORTED_ENCODING: 415,
};

/** A request refused whole; the message names the rule it broke. Not retryable: the same bytes fail again. */
export class OtlpRequestError extends Error {
  readonly status: number;

  constructor(
    readonly code: OtlpRequestErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}
