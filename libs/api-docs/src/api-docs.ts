import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

/** The shape of every error answer (libs/http ErrorBody). */
const ERROR_BODY = {
  type: 'object',
  required: ['statusCode', 'code', 'message', 'requestId'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'machine-readable, e.g. VALIDATION_FAILED, RATE_LIMITED' },
    message: { type: 'string' },
    errors: {
      type: 'array',
      description: 'one entry per failing field',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
    exchange: { type: 'object', description: "the exchange's own code and message, when it refused the request" },
    requestId: { type: 'string', description: 'also in the X-Request-Id header and the logs' },
    errorId: { type: 'string', description: 'only on 500s' },
  },
};

/** Settings classes are validated with class-validator too, but are not request bodies. */
const NOT_API = new Set(['AppConfig']);

/**
 * OpenAPI for everyone who calls the gateway: /docs (Swagger UI) and /docs-json. Body and query schemas come from
 * the class-validator rules that validate the requests, so the document cannot drift from what is enforced.
 */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('WEEX AI-log gateway')
    .setDescription(
      'Agents post an AI log after each decision (`POST /v1/ai-logs`); the gateway commits it, uploads it to WEEX signed, ' +
        'and serves the account, orders, trades and the evidence that links each fill to its decision. ' +
        'IDs are 64-bit: they are strings in every answer, and may be sent as JSON integers of any size or digit strings. ' +
        'Every error has the ErrorBody shape and names the failing field and rule.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'agent key (POST /admin/agents, AGENT_API_KEY, or the sandbox key printed at start)' }, 'agent')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const generated = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<string, Record<string, unknown>>;
  const schemas = Object.fromEntries(Object.entries(generated).filter(([name]) => !NOT_API.has(name)).map(([name, s]) => [name, withoutBuiltinRefs(s)]));
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...schemas, ErrorBody: ERROR_BODY } };
  expandQueryDtos(document, schemas);
  return document;
}

export function setupApiDocs(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildApiDocument(app), { jsonDocumentUrl: 'docs-json', customSiteTitle: 'AI-log gateway API' });
}

/** Turns `x-query-dto: <DTO>` into one query parameter per property of the DTO's schema. */
function expandQueryDtos(document: OpenAPIObject, schemas: Record<string, Record<string, unknown>>): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.post, item.put, item.delete]) {
      const name = (operation as unknown as Record<string, unknown> | undefined)?.['x-query-dto'] as string | undefined;
      if (!operation || !name) continue;
      const schema = schemas[name] as { properties?: Record<string, object>; required?: string[] } | undefined;
      const parameters = Object.entries(schema?.properties ?? {}).map(([property, propertySchema]) => ({
        name: property,
        in: 'query' as const,
        required: schema?.required?.includes(property) ?? false,
        schema: propertySchema,
      }));
      operation.parameters = [...(operation.parameters ?? []).filter((p) => !('in' in p) || p.in !== 'query'), ...parameters];
      delete (operation as unknown as Record<string, unknown>)['x-query-dto'];
    }
  }
}

/**
 * A property validated by a custom decorator is described by its TypeScript type, which reaches the generator as a
 * reference to `Object` or `Array`: drop the former (any JSON value, as the property's own description says) and
 * turn the latter into `type: array`.
 */
function withoutBuiltinRefs(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties) return schema;
  for (const property of Object.values(properties)) {
    if (property.$ref === '#/components/schemas/Object') delete property.$ref;
    if (property.$ref === '#/components/schemas/Array') {
      delete property.$ref;
      property.type ??= 'array';
    }
  }
  return schema;
}
