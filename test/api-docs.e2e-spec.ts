import { gatewaySuite } from './support/gateway-suite.js';

/** Paths that are not part of the JSON API: pages and probes, documented in the README instead. */
const UNDOCUMENTED_OK = /^\/(health|metrics)/;

describe('API documentation (/docs, /docs-json)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: 'agent-key-for-docs-tests' }, { worker: false });
  let doc: any;

  beforeAll(async () => {
    if (!suite.harness) return;
    doc = await (await fetch(`${suite.harness.apiUrl}/docs-json`)).json();
  });

  it('serves Swagger UI at /docs and OpenAPI 3 at /docs-json', async () => {
    if (!suite.harness) return;
    const page = await fetch(`${suite.harness.apiUrl}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger-ui/i);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/v1/ai-logs'].post).toBeDefined();
  });

  it('documents every endpoint with a summary, an example answer, its error answers and its auth', () => {
    if (!suite.harness) return;
    const problems: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!op.summary) problems.push(`${name}: no summary`);
        const responses = Object.entries<any>(op.responses ?? {});
        const success = responses.filter(([status]) => /^2/.test(status));
        if (!success.some(([, r]) => r.content?.['application/json']?.example !== undefined || r.content?.['text/html'])) {
          problems.push(`${name}: no example answer`);
        }
        if (UNDOCUMENTED_OK.test(path)) continue;
        const errors = responses.filter(([status]) => /^[45]/.test(status));
        if (errors.length === 0) problems.push(`${name}: no error answers`);
        for (const [status, r] of errors) {
          if (r.content?.['application/json']?.schema?.$ref !== '#/components/schemas/ErrorBody') problems.push(`${name}: ${status} is not an ErrorBody`);
        }
        if (!op.security?.length) problems.push(`${name}: no auth`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('generates body schemas from the validation rules, and every reference resolves', () => {
    if (!suite.harness) return;
    const log = doc.components.schemas.CreateAiLogDto;
    expect(log.required).toEqual(expect.arrayContaining(['stage', 'model', 'input', 'output', 'explanation']));
    expect(log.properties.orderId.oneOf).toEqual([{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^[0-9]+$' }]);
    expect(log.properties.explanation.maxLength).toBe(1000);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((name) => !doc.components.schemas[name])).toEqual([]);
  });
});
