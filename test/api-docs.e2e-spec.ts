import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateAiLogDto } from '#libs/ai-log';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { gatewaySuite } from './support/gateway-suite.js';

const run = promisify(execFile);
const bin = (name: string) => join(process.cwd(), 'node_modules', '.bin', name);

/** Paths without auth: the probes and the metrics, with `security: []`. */
const PUBLIC = /^\/(health\/|metrics$)/;
/** The OTLP/HTTP receiver, whose errors OTLP defines. */
const OTLP = /^\/otlp\//;
/** Operations that have no 4xx answer to give: the probes and the metrics (redocly's operation-4xx-response warns). */
const NO_4XX = ['/health/live', '/health/ready', '/metrics'];

describe('API documentation (/docs, /docs-json)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: 'agent-key-for-docs-tests', ADMIN_TOKEN: 'admin-token-for-docs-tests' }, { worker: false });
  let doc: any;
  let work: string;
  let docFile: string;
  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
    );

  beforeAll(async () => {
    doc = await (await fetch(`${suite.harness.apiUrl}/docs-json`)).json();
    work = mkdtempSync(join(tmpdir(), 'api-docs-'));
    docFile = join(work, 'openapi.json');
    writeFileSync(docFile, JSON.stringify(doc));
  });
  afterAll(() => work && rmSync(work, { recursive: true, force: true }));

  it('serves Swagger UI at /docs and OpenAPI 3 at /docs-json', async () => {
    const page = await fetch(`${suite.harness.apiUrl}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger-ui/i);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('documents every endpoint: a summary, an operation id like createAiLog, named answers with examples, ErrorBody errors, its auth', () => {
    const problems: string[] = [];
    for (const { path, op, name } of operations()) {
      if (!op.summary) problems.push(`${name}: no summary`);
      if (!/^[a-z]+[A-Z][A-Za-z]*$/.test(op.operationId)) problems.push(`${name}: operation id ${op.operationId}`);
      const responses = Object.entries<any>(op.responses ?? {});
      for (const [status, response] of responses.filter(([status]) => /^2/.test(status))) {
        for (const [type, content] of Object.entries<any>(response.content ?? {})) {
          const named = type === 'application/json' ? /^#\/components\/schemas\/\w+$/.test(content.schema?.$ref) : content.schema?.type === 'string';
          if (!named) problems.push(`${name}: ${status} ${type} has no named schema`);
          if (content.example === undefined && content.examples === undefined) problems.push(`${name}: ${status} ${type} has no example`);
        }
        if (!response.content) problems.push(`${name}: ${status} has no content`);
      }
      const errors = responses.filter(([status]) => /^[45]/.test(status) && !(PUBLIC.test(path) && status === '503'));
      if (!PUBLIC.test(path) && errors.length === 0) problems.push(`${name}: no error answers`);
      // OTLP/HTTP's errors are google.rpc.Status, as its exporters read them; every other error is an ErrorBody.
      const errorSchema = OTLP.test(path) ? '#/components/schemas/OtlpStatusDto' : '#/components/schemas/ErrorBody';
      for (const [status, r] of errors)
        if (r.content?.['application/json']?.schema?.$ref !== errorSchema) problems.push(`${name}: ${status} is not an ${errorSchema}`);
      // Agent keys on /v1/ and /otlp/ and nowhere else: the check of a large body's key before it is read selects by those prefixes.
      const security = JSON.stringify(op.security);
      const expected = PUBLIC.test(path) ? '[]' : path.startsWith('/v1/') || OTLP.test(path) ? '[{"agent":[]}]' : '[{"admin":[]}]';
      if (security !== expected) problems.push(`${name}: security ${security}, expected ${expected}`);
    }
    expect(problems).toEqual([]);
    expect(new Set(operations().map(({ op }) => op.operationId)).size).toBe(operations().length);
    expect(doc.paths['/v1/ai-logs'].post.operationId).toBe('createAiLog');
  });

  it('refuses a query parameter on every operation that documents none, with 400 naming it', async () => {
    // A value of the right form for each path parameter, so that the query is what the answer is about.
    const values: Record<string, string> = { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', orderId: '737185556881998184' };
    const tokens = { agent: 'agent-key-for-docs-tests', admin: 'admin-token-for-docs-tests' };
    const checked: string[] = [];
    for (const { path, method, op, name } of operations()) {
      if (PUBLIC.test(path) || !['get', 'delete'].includes(method) || (op.parameters ?? []).some((p: any) => p.in === 'query')) continue;
      const scheme = Object.keys(op.security[0])[0] as keyof typeof tokens;
      const url = `${suite.harness.apiUrl}${path.replace(/\{(\w+)\}/g, (_, param: string) => values[param])}?undocumented=1`;
      const res = await fetch(url, { method: method.toUpperCase(), headers: { authorization: `Bearer ${tokens[scheme]}` } });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'undocumented' }] });
      checked.push(name);
    }
    expect(checked.length).toBeGreaterThan(10);
  });

  it('declares plain bearer tokens (agent keys are opaque, not JWTs) and the media types each answer is served in', () => {
    expect(doc.components.securitySchemes).toEqual({
      agent: { type: 'http', scheme: 'bearer', description: expect.any(String) },
      admin: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    const served = (path: string) => Object.keys(doc.paths[path].get.responses['200'].content).sort();
    expect(served('/v1/audit/export')).toEqual(['application/x-ndjson', 'text/csv']);
    expect(served('/v1/audit/report')).toEqual(['text/html']);
    expect(served('/metrics')).toEqual(['text/plain']);
    expect(served('/v1/positions')).toEqual(['application/json']);
  });

  it('describes what is sent: IDs as strings, free-form input and output, a log status and attempt outcome, a trade price, a position id', () => {
    const { schemas } = doc.components;
    const log = schemas.AiLogDto.properties;
    expect(log.status.enum).toEqual(['queued', 'uploading', 'uploaded', 'retrying', 'failed']);
    expect(schemas.AttemptDto.properties.outcome.enum).toEqual(['uploaded', 'retryable', 'permanent', 'uncertain']);
    expect(log.attempts).toEqual({ type: 'array', items: { $ref: '#/components/schemas/AttemptDto' }, description: expect.any(String) });
    for (const field of ['input', 'output']) expect(log[field]).toMatchObject({ type: 'object', additionalProperties: true });
    expect(log.orderId).toMatchObject({ type: 'string', nullable: true });
    expect(schemas.TradeDto.properties.price.type).toBe('string');
    expect(schemas.PositionDto.properties.id.type).toBe('string');
    expect(schemas.PositionDto.required).toContain('id');
    expect(doc.paths['/v1/ai-logs/{id}'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/AiLogDto');
  });

  it('generates body and query schemas from the validation rules, descriptions included, and every reference resolves', () => {
    const log = doc.components.schemas.CreateAiLogDto;
    expect(log.required).toEqual(['stage']);
    expect(log.properties.modelCallIds.description).toContain('left out are filled from them');
    expect(log.properties.orderId.oneOf.slice(0, 2)).toEqual([
      { type: 'integer', minimum: 1 },
      { type: 'string', pattern: '^[0-9]+$' },
    ]);
    // The DTO's own rule and wording reach the document, whatever they become.
    expect(log.properties.explanation).toEqual((targetConstructorToSchema(CreateAiLogDto) as any).properties.explanation);
    // An unknown order is a 404 of its own code, not the generic one.
    expect(doc.paths['/v1/orders/{orderId}'].get.responses['404'].content['application/json'].example).toMatchObject({
      statusCode: 404,
      code: 'ORDER_NOT_FOUND',
    });
    // How the 1000 characters are counted is part of the contract: UTF-16 units, as WEEX's Java backend counts.
    expect(log.properties.explanation.description).toMatch(/1000 characters, counted as UTF-16 code units.*emoji such as 😀 counts 2/);
    const limit = doc.paths['/v1/orders/open'].get.parameters.find((p: any) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } });
    expect(doc.paths['/v1/orders/{orderId}'].get.parameters).toEqual([expect.objectContaining({ name: 'orderId', in: 'path', required: true })]);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((name) => !doc.components.schemas[name])).toEqual([]);
  });

  it('passes redocly lint with the recommended rules: no error, and no warning but the probes having no 4xx answer', async () => {
    // Offline: no telemetry, no update check.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };
    const output = await run(bin('redocly'), ['lint', docFile, '--extends=recommended', '--format=json'], { env, cwd: work }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    const { problems } = JSON.parse(output.slice(output.indexOf('{'))) as {
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const where = (p: (typeof problems)[number]) => decodeURIComponent(p.location[0]?.pointer ?? '').replaceAll('~1', '/');
    const expected = (p: (typeof problems)[number]) => p.ruleId === 'operation-4xx-response' && NO_4XX.some((path) => where(p).startsWith(`#/paths/${path}/`));
    expect(problems.filter((p) => !expected(p)).map((p) => `${p.severity} ${p.ruleId} ${where(p)}: ${p.message}`)).toEqual([]);
  });

  it("types a client with openapi-typescript that posts the README's example and reads a log's status and outcome, a trade's price and a position's id", async () => {
    await run(bin('openapi-typescript'), [docFile, '--output', join(work, 'schema.d.ts')], { cwd: work });
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const example = /curl -s -X POST http:\/\/127\.0\.0\.1:3000\/v1\/ai-logs[\s\S]*?-d '(\{[\s\S]*?\})'/.exec(readme)?.[1];
    expect(example).toBeDefined();
    writeFileSync(join(work, 'client.ts'), clientSource(example!));
    const tsc = await run(bin('tsc'), ['--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022,dom', '--module', 'nodenext', 'client.ts'], {
      cwd: work,
    }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(tsc).toBe('');
  });
});

/** A small client on the generated types; `readmeLog` is the README's example body as it is written there. */
function clientSource(readmeLog: string): string {
  return `import type { paths } from './schema.js';

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: Record<S, { content: { 'application/json': infer T } }> } ? T : never;
type NewLog = paths['/v1/ai-logs']['post']['requestBody']['content']['application/json'];

const GATEWAY = 'http://127.0.0.1:3000';
const headers = { Authorization: 'Bearer agk_...', 'Content-Type': 'application/json' };
const get = async <T>(path: string): Promise<T> => (await (await fetch(GATEWAY + path, { headers })).json()) as T;

const readmeLog: NewLog = ${readmeLog};

export async function postReadmeExample(): Promise<string> {
  const res = await fetch(GATEWAY + '/v1/ai-logs', { method: 'POST', headers, body: JSON.stringify(readmeLog) });
  const accepted = (await res.json()) as Json<'/v1/ai-logs', 'post', 202>;
  const queued: 'queued' = accepted.status;
  return queued + accepted.id + accepted.receivedAt;
}

export async function follow(id: string): Promise<string> {
  const log = await get<Json<'/v1/ai-logs/{id}', 'get', 200>>('/v1/ai-logs/' + id);
  const status: 'queued' | 'uploading' | 'uploaded' | 'retrying' | 'failed' = log.status;
  const outcome: 'uploaded' | 'retryable' | 'permanent' | 'uncertain' = log.attempts[0].outcome;
  const input: typeof log.input = { prompt: 'BTCUSDT 1h candles ...', nested: { price: 64250.5 } };
  const orderId: string | null = log.orderId;
  // @ts-expect-error a 64-bit ID is never a number
  const asNumber: number | null = log.orderId;
  return [status, outcome, JSON.stringify(input), orderId, asNumber].join(' ');
}

export async function prices(): Promise<string[]> {
  const { data } = await get<Json<'/v1/trades', 'get', 200>>('/v1/trades');
  return data.map((trade) => trade.price);
}

export async function positionIds(): Promise<string[]> {
  const { data } = await get<Json<'/v1/positions', 'get', 200>>('/v1/positions');
  return data.map((position) => position.id);
}
`;
}
