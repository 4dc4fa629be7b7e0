/**
 * What kind of failure an exchange answer is; callers decide what to do from this alone.
 * - rate_limited: HTTP 429; back off and slow the whole account.
 * - transient: 5xx or a system-error code; retry with backoff.
 * - auth: bad key, passphrase, signature or timestamp; permanent until credentials change.
 * - permission: not allowed (for example a UID not on the AI-log allowlist, or an IP not allowlisted).
 * - invalid_request: the exchange rejected the parameters; permanent for that request.
 * - unavailable: no usable answer: connection refused, the 521 HTML page, a non-JSON body.
 * - uncertain: the request was sent but no answer came back (timeout, dropped connection); it may have taken effect.
 */
export type WeexErrorKind = 'rate_limited' | 'transient' | 'auth' | 'permission' | 'invalid_request' | 'unavailable' | 'uncertain';

/** An exchange call that did not succeed. Never carries credentials or signatures. */
export class WeexApiError extends Error {
  override readonly name = 'WeexApiError';

  constructor(
    readonly kind: WeexErrorKind,
    readonly operation: string,
    message: string,
    readonly details: {
      httpStatus?: number;
      /** The exchange's code as sent: a negative integer on v3, a numeric string on v2. */
      code?: string;
      /** True when the answer came from the local simulator. */
      simulator?: boolean;
      /** For a request refused before sending: the parameter at fault and the rule it broke. */
      field?: string;
      rule?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: details.cause });
  }

  /**
   * A request the client refused before sending anything, naming the parameter and the rule; `kind` is
   * `invalid_request` and no HTTP request was made.
   */
  static invalidParameter(operation: string, field: string, rule: string): WeexApiError {
    return new WeexApiError('invalid_request', operation, `${field} ${rule}`, { field, rule });
  }

  get httpStatus(): number | undefined {
    return this.details.httpStatus;
  }

  get code(): string | undefined {
    return this.details.code;
  }

  /** The parameter a request was refused for, when the client refused it before sending. */
  get field(): string | undefined {
    return this.details.field;
  }

  /** Worth another try later: the exchange did not refuse this request on its merits. */
  get retryable(): boolean {
    return ['rate_limited', 'transient', 'unavailable', 'uncertain'].includes(this.kind);
  }
}
