import { applyDecorators, type Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, type SchemaObject } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto.js';
import { dtoSchema } from './dto-schema.js';

interface ErrorMeaning {
  description: string;
  code: string;
  message: string;
  errors?: Array<{ path: string; message: string }>;
  /** Headers the answer carries besides the body, such as Retry-After. */
  headers?: Record<string, { description: string; schema: SchemaObject }>;
}

/**
 * What each error status a handler or filter gives means on this API (401, 403 and 429 come from the guards, and are
 * documented by the controller kinds that put them on); every error answer has the ErrorBody shape.
 */
const ERROR_MEANING: Record<number, ErrorMeaning> = {
  400: {
    description: 'A field broke a rule; every failing field is named',
    code: 'VALIDATION_FAILED',
    message: 'request is not valid',
    errors: [{ path: 'limit', message: 'limit must be an integer from 1 to 100' }],
  },
  404: { description: 'Not found for this account', code: 'NOT_FOUND', message: 'no AI log 0195f0c2-… for this account' },
  409: { description: 'Conflict with the current state; the message says which', code: 'CONFLICT', message: 'log 0195f0c2-… is not failed' },
  413: { description: 'Body over the size limit', code: 'PAYLOAD_TOO_LARGE', message: 'the body is larger than 1048576 bytes, the most this path takes' },
  422: {
    description: 'Idempotency-Key reused with a different body',
    code: 'IDEMPOTENCY_KEY_REUSED',
    message: 'this Idempotency-Key was used with a different request',
  },
  502: {
    description:
      "The gateway's fault at the exchange, never the caller's: its credentials, headers or clock refused (EXCHANGE_AUTH_FAILED), its request's form (EXCHANGE_REQUEST_MALFORMED) or path (EXCHANGE_PATH_NOT_FOUND)",
    code: 'EXCHANGE_AUTH_FAILED',
    message: 'the exchange refused our credentials',
  },
  503: {
    description:
      'The exchange or a dependency is unavailable (EXCHANGE_UNAVAILABLE), or a database statement ran past API_STATEMENT_TIMEOUT_MS (QUERY_TIMEOUT)',
    code: 'EXCHANGE_UNAVAILABLE',
    message: 'the exchange did not answer',
  },
  504: {
    description: 'Sent, but no answer came back: for a cancel the outcome is unknown (EXCHANGE_OUTCOME_UNKNOWN), for a read it timed out (EXCHANGE_TIMEOUT)',
    code: 'EXCHANGE_OUTCOME_UNKNOWN',
    message: 'the exchange did not answer: the outcome of the cancel is unknown',
  },
};

/** Error answers of an endpoint, each with the ErrorBody schema and an example. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(...statuses.map((status) => ApiError(status, ERROR_MEANING[status] ?? { description: 'Error', code: 'ERROR', message: 'error' })));
}

/** One error answer: the ErrorBody schema, and an example with this code and message. */
export function ApiError(status: number, { description, headers, ...example }: ErrorMeaning): MethodDecorator & ClassDecorator {
  return ApiResponse({
    status,
    description,
    headers,
    type: ErrorBodyDto,
    example: { statusCode: status, ...example, requestId: 'b3f1c1de-5a0e-4c1e-9d53-1f0c2d7b9a10' },
  });
}

/**
 * The summary and description of an endpoint, and its query and path parameters: those of the class-validator DTO its
 * handler takes (`@Query() q: OpenOrdersQueryDto`, `@Param() p: OrderPathDto`), with the schema of each rule. Applied
 * after the parameter decorators (TypeScript applies those first), so it reads them.
 */
export function ApiEndpoint(summary: string, description?: string): MethodDecorator {
  return (target, key, descriptor) => {
    const parameters = dtoParameters(target, key).map(({ dto, in: where }) => {
      const { properties = {}, required = [] } = dtoSchema(dto);
      return Object.entries(properties as Record<string, SchemaObject>).map(([name, schema]) =>
        where === 'query' ? ApiQuery({ name, required: required.includes(name), schema }) : ApiParam({ name, required: true, schema }),
      );
    });
    applyDecorators(ApiOperation({ summary, description }), ...parameters.flat())(target, key, descriptor);
  };
}

/** The DTO classes a handler takes as its whole query string or whole path parameters. */
function dtoParameters(target: object, key: string | symbol): Array<{ dto: Type; in: 'query' | 'path' }> {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', target, key) ?? []) as Type[];
  return Object.entries(args).flatMap(([name, { index, data }]) => {
    const where = name.startsWith(`${RouteParamtypes.QUERY}:`) ? 'query' : name.startsWith(`${RouteParamtypes.PARAM}:`) ? 'path' : undefined;
    return where && data === undefined && types[index] ? [{ dto: types[index], in: where }] : [];
  });
}

/** A JSON body validated by a class-validator DTO (its schema is generated from the rules), with an example. */
export function ApiJsonBody(dto: Type, example: unknown, description?: string): MethodDecorator {
  return ApiBody({ description, type: dto, examples: { example: { summary: 'Example', value: example } } });
}

/** A JSON success answer: its response class (a named schema) and, optionally, a whole example. */
export function ApiAnswer(status: number, description: string, type: Type, example?: unknown): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, type, ...(example === undefined ? {} : { example }) });
}

/** A success answer that is not JSON: one entry per media type served, each with an example of its text. */
export function ApiTextAnswer(description: string, examples: Record<string, string>): MethodDecorator {
  const content = Object.fromEntries(Object.entries(examples).map(([type, example]) => [type, { schema: { type: 'string' as const }, example }]));
  return ApiResponse({ status: 200, description, content });
}

/** The endpoint needs the security scheme `name` (agent or admin): a plain bearer token. */
export const ApiBearer = (name: 'agent' | 'admin'): MethodDecorator & ClassDecorator => ApiSecurity(name);
