import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtension, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';

/** What each error status means on this API; every error answer has the ErrorBody shape. */
const ERROR_MEANING: Record<number, { description: string; code: string; message: string; errors?: Array<{ path: string; message: string }> }> = {
  400: {
    description: 'A field broke a rule; every failing field is named',
    code: 'VALIDATION_FAILED',
    message: 'request is not valid',
    errors: [{ path: 'limit', message: 'limit must not be greater than 100' }],
  },
  401: { description: 'Missing, unknown or revoked key', code: 'UNAUTHORIZED', message: 'unknown or revoked agent key' },
  403: { description: 'The key lacks the scope this endpoint needs, or the exchange refused permission', code: 'FORBIDDEN', message: 'this agent key lacks the scope exchange:cancel' },
  404: { description: 'Not found for this account', code: 'NOT_FOUND', message: 'no AI log 0195f0c2-… for this account' },
  409: { description: 'Conflict with the current state', code: 'CONFLICT', message: 'a request with this Idempotency-Key is still in flight' },
  413: { description: 'Body over the size limit', code: 'PAYLOAD_TOO_LARGE', message: 'body is larger than 1048576 bytes' },
  422: { description: 'Idempotency-Key reused with a different body', code: 'IDEMPOTENCY_KEY_REUSED', message: 'this Idempotency-Key was used with a different request' },
  429: { description: 'Rate limited; see Retry-After', code: 'RATE_LIMITED', message: 'this agent key made too many requests; retry in 12 s' },
  502: { description: "The exchange refused the gateway's credentials", code: 'EXCHANGE_AUTH_FAILED', message: 'the exchange refused our credentials' },
  503: { description: 'The exchange or a dependency is unavailable', code: 'EXCHANGE_UNAVAILABLE', message: 'the exchange did not answer' },
  504: { description: 'Sent, but no answer came back: for a cancel the outcome is unknown (EXCHANGE_OUTCOME_UNKNOWN), for a read it timed out (EXCHANGE_TIMEOUT)', code: 'EXCHANGE_OUTCOME_UNKNOWN', message: 'the exchange did not answer: the outcome of the cancel is unknown' },
};

/** Error answers of an endpoint, each with the ErrorBody schema and an example. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => {
      const { description, ...example } = ERROR_MEANING[status] ?? { description: 'Error', code: 'ERROR', message: 'error' };
      return ApiResponse({
        status,
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, example: { statusCode: status, ...example, requestId: 'b3f1c1de-5a0e-4c1e-9d53-1f0c2d7b9a10' } } },
      });
    }),
  );
}

/** A JSON body described by a class-validator DTO (its schema is generated from the validation rules) and an example. */
export function ApiJsonBody(dto: string, example: unknown, description?: string): MethodDecorator {
  return ApiBody({ description, schema: { $ref: `#/components/schemas/${dto}` }, examples: { example: { value: example } } });
}

/** A success answer with an example (and a schema, when one is named). */
export function ApiAnswer(status: number, description: string, example: unknown, schema?: string): MethodDecorator {
  return ApiResponse({
    status,
    description,
    content: { 'application/json': { ...(schema ? { schema: { $ref: `#/components/schemas/${schema}` } } : { schema: { type: 'object' } }), example } },
  });
}

/** Query parameters taken from a class-validator DTO: expanded into parameters when the document is built. */
export function ApiQueryDto(dto: string): MethodDecorator {
  return ApiExtension('x-query-dto', dto);
}

/** The tag, summary and security of an endpoint group or endpoint. */
export function ApiEndpoint(summary: string, description?: string): MethodDecorator {
  return ApiOperation({ summary, description });
}

export function ApiAgentController(tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiBearerAuth('agent'));
}

export function ApiAdminController(tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiBearerAuth('admin'));
}
