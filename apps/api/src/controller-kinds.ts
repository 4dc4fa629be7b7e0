import { applyDecorators, SetMetadata, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, ApiTags, DECORATORS, getSchemaPath } from '@nestjs/swagger';
import { AdminAuthGuard, AgentAuthGuard, lacksScope, RequireScope } from '#libs/accounts';
import { ApiBearer, ApiError, ApiErrors } from '#libs/api-docs';
import type { AgentScope } from '#libs/config';
import { ExchangeErrorFilter } from '#libs/exchange-proxy';
import { OtlpStatusFilter } from './otlp/otlp-status.filter.js';
import { OtlpStatusDto } from './otlp/otlp.responses.js';

/**
 * One decorator per kind of controller (as immich's `@Authenticated()`): each puts the guard on the controller and
 * says the same in the OpenAPI document (the security scheme, and the error answers the guard and filters give), so
 * that the document and the checks cannot disagree.
 */

/** The header of a 429: how long to wait before trying again. */
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' as const, minimum: 1, example: 12 } } };

/** Any endpoint that reads PostgreSQL: a statement stopped at API_STATEMENT_TIMEOUT_MS. */
const QUERY_TIMEOUT = ApiError(503, {
  description: 'A database statement of this request ran longer than API_STATEMENT_TIMEOUT_MS and was stopped (QUERY_TIMEOUT); try again later',
  code: 'QUERY_TIMEOUT',
  message:
    'a database statement of this request ran longer than the statement timeout (API_STATEMENT_TIMEOUT_MS) and was stopped: ask for a narrower window, or try again later',
});

/** Agent-key endpoints: AgentAuthGuard (401 without a valid key, 429 over its rate limit), and the scope they need. */
export const AgentApi = (tag: string, ...scopes: AgentScope[]): ClassDecorator =>
  applyDecorators(
    ApiTags(tag),
    UseGuards(AgentAuthGuard),
    ApiBearer('agent'),
    ApiError(401, { description: 'Missing, unknown or revoked agent key', code: 'UNAUTHORIZED', message: 'unknown or revoked agent key' }),
    ApiError(429, {
      description: "Over the agent key's rate limit; see Retry-After",
      code: 'RATE_LIMITED',
      message: 'this agent key made too many requests; retry in 12 s',
      headers: RETRY_AFTER,
    }),
    QUERY_TIMEOUT,
    ...(scopes.length > 0 ? [Scopes(scopes)] : []),
  );

/** The scope a controller's or a handler's key needs (any one of them): the guard's check and its documented 403. */
export const Scopes = (scopes: AgentScope[], alsoForbidden = ''): ClassDecorator & MethodDecorator =>
  applyDecorators(
    RequireScope(...(scopes as [AgentScope, ...AgentScope[]])),
    ApiError(403, { description: `The agent key lacks the scope ${scopes.join(' or ')}${alsoForbidden}`, code: 'FORBIDDEN', message: lacksScope(scopes) }),
  );

/** The error answers ExchangeErrorFilter gives for a failed exchange call, besides the 403 of Scopes. */
const EXCHANGE_ERRORS = [400, 409, 502, 503, 504];

/** The account and order endpoints: an agent key with `scope`, and failed exchange calls mapped by ExchangeErrorFilter. */
export const ExchangeApi = (tag: string, scope: AgentScope): ClassDecorator =>
  applyDecorators(
    AgentApi(tag),
    Scopes([scope], ', or the exchange refused permission (EXCHANGE_PERMISSION_DENIED)'),
    UseFilters(ExchangeErrorFilter),
    ApiErrors(...EXCHANGE_ERRORS),
  );

/** Admin endpoints: AdminAuthGuard (401 without the admin token, 429 for an address that sent too many wrong ones). */
export const AdminApi = (tag: string): ClassDecorator =>
  applyDecorators(
    ApiTags(tag),
    UseGuards(AdminAuthGuard),
    ApiBearer('admin'),
    ApiError(401, { description: 'Missing or wrong admin token', code: 'UNAUTHORIZED', message: 'Authorization header must be "Bearer <ADMIN_TOKEN>"' }),
    ApiError(429, {
      description: 'Too many wrong admin tokens from this address; see Retry-After',
      code: 'RATE_LIMITED',
      message: 'too many wrong admin tokens from this address; retry in 42 s',
      headers: RETRY_AFTER,
    }),
    QUERY_TIMEOUT,
  );

/** Endpoints without auth (probes and metrics): `security: []` in the document. */
export const PublicApi = (tag: string): ClassDecorator => applyDecorators(ApiTags(tag), SetMetadata(DECORATORS.API_SECURITY, []));

/** The errors of the OTLP receiver, each a Status with the gateway's code leading its message. */
const OTLP_ERRORS: Array<[number, string, string]> = [
  [
    400,
    'Bad data, not to be sent again: undecodable, too many spans or values, more model-call spans than the key may send in a minute',
    'OTLP_TOO_MANY_SPANS: the request holds 6000 spans, more than OTLP_MAX_SPANS_PER_REQUEST (5000): export smaller batches',
  ],
  [401, 'Missing, unknown or revoked agent key (OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer <key>)', 'UNAUTHORIZED: unknown or revoked agent key'],
  [403, 'The agent key lacks the scope logs:write', 'FORBIDDEN: this agent key lacks the scope logs:write'],
  [
    413,
    'The body, or what it inflates to, is larger than OTLP_BODY_LIMIT_BYTES or OTLP_DECOMPRESSED_LIMIT_BYTES',
    'OTLP_BODY_TOO_LARGE: the body inflates to more than OTLP_DECOMPRESSED_LIMIT_BYTES (16777216 bytes): export smaller batches',
  ],
  [
    415,
    'A Content-Type other than application/x-protobuf or application/json, or a Content-Encoding other than gzip',
    'UNSUPPORTED_MEDIA_TYPE: Content-Type must be application/x-protobuf or application/json',
  ],
  [
    429,
    "Over the agent key's rate limit (each model-call span counts one); exporters retry after Retry-After",
    'RATE_LIMITED: this agent key made too many requests; retry in 12 s',
  ],
  [
    503,
    'A database statement ran longer than API_STATEMENT_TIMEOUT_MS; exporters retry',
    'QUERY_TIMEOUT: a database statement of this request ran longer than the statement timeout',
  ],
];

/**
 * The OTLP/HTTP receiver: an agent key with `scope` (as AgentApi), but every error as OTLP's Status in the request's
 * encoding (OtlpStatusFilter), which is what OTLP exporters read, and so documented.
 */
export const OtlpApi = (tag: string, scope: AgentScope): ClassDecorator =>
  applyDecorators(
    ApiTags(tag),
    UseGuards(AgentAuthGuard),
    UseFilters(OtlpStatusFilter),
    RequireScope(scope),
    ApiBearer('agent'),
    ApiExtraModels(OtlpStatusDto),
    ...OTLP_ERRORS.map(([status, description, message]) =>
      ApiResponse({
        status,
        description,
        ...(status === 429 ? { headers: RETRY_AFTER } : {}),
        content: {
          'application/json': { schema: { $ref: getSchemaPath(OtlpStatusDto) }, example: { code: status === 429 || status === 413 ? 8 : 3, message } },
          'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
        },
      }),
    ),
  );
