import { HttpException } from '@nestjs/common';

/** The gateway's own failures on the way to a model provider; the provider's errors are passed on as it sent them. */
export const LLM_GATEWAY_ERRORS = {
  /** No provider for the account: LLM_UPSTREAM_URL, or PUT /admin/accounts/:id/llm-upstream. */
  LLM_UPSTREAM_NOT_CONFIGURED: 503,
  /** The provider could not be reached (refused, DNS, TLS), or broke off its answer before it ended. */
  LLM_UPSTREAM_UNREACHABLE: 502,
  /** The provider did not answer within LLM_UPSTREAM_TIMEOUT_MS. */
  LLM_UPSTREAM_TIMEOUT: 504,
  /** The call came back to a gateway: the provider's URL names this gateway (or another one that points here). */
  LLM_UPSTREAM_LOOP: 508,
  /** The provider's answer outgrew LLM_ANSWER_LIMIT_BYTES, which the gateway would have to hold to record it. */
  LLM_ANSWER_TOO_LARGE: 502,
} as const;

export type LlmGatewayErrorCode = keyof typeof LLM_GATEWAY_ERRORS;

/** One of LLM_GATEWAY_ERRORS, answered as an ErrorBody with its code. */
export class LlmGatewayException extends HttpException {
  constructor(
    readonly code: LlmGatewayErrorCode,
    message: string,
  ) {
    super({ code, message }, LLM_GATEWAY_ERRORS[code]);
  }
}
