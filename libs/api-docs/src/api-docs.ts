import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type ReferenceObject, type SchemaObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { pageSecurity, securePage } from '#libs/http';
import { dtoSchemas } from './dto-schema.js';

/**
 * OpenAPI for everyone who calls the gateway: /docs (Swagger UI) and /docs-json. Answers are described by response
 * classes (@ApiProperty), body and query schemas by the class-validator rules that validate the requests, so the
 * document cannot drift from what is enforced. Operation ids are the handlers' names (`createAiLog`).
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
    .setLicense('MIT', 'https://opensource.org/license/mit')
    .addServer('/', 'the gateway that serves this document')
    // Agent keys and the admin token are opaque bearer tokens (not JWTs).
    .addSecurity('agent', { type: 'http', scheme: 'bearer', description: 'agent key (POST /admin/agents, AGENT_API_KEY, or the sandbox key printed at start)' })
    .addSecurity('admin', { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' })
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, handler) => handler });
  document.components = { ...document.components, schemas: withRuleSchemas(document.components?.schemas) };
  return document;
}

/** Swagger sees a request DTO as a class without properties: its schema is the one of its class-validator rules. */
function withRuleSchemas(schemas: Record<string, SchemaObject | ReferenceObject> = {}): Record<string, SchemaObject | ReferenceObject> {
  const generated = dtoSchemas();
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, generated[name] ?? schema]));
}

/** Swagger UI: its own scripts and styles (inline ones too: its page and components set them), data: icons, calls to this origin. */
const SWAGGER_UI_SECURITY = pageSecurity({
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
});
const swaggerUiHeaders: onRequestHookHandler = (_request, reply, done) => {
  securePage(reply, SWAGGER_UI_SECURITY);
  done();
};

/**
 * Serves /docs and /docs-json. Swagger UI's routes (added by SwaggerModule, so without options of ours) get its CSP
 * by a hook of their own. `validatorUrl: null`: Swagger UI would otherwise load a badge from validator.swagger.io.
 */
export function setupApiDocs(app: INestApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) route.onRequest = [...[route.onRequest ?? []].flat(), swaggerUiHeaders];
  });
  SwaggerModule.setup('docs', app, () => buildApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'AI-log gateway API',
    swaggerOptions: { validatorUrl: null },
  });
}
