import { EvidenceSyncService } from '#libs/evidence';
import { gatewaySuite } from './support/gateway-suite.js';
import { schemaProblems } from './support/schema-check.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-contract-tests-0123456789';
/** A filled BTCUSDT buy of the sandbox account (the README's example order). */
const ORDER = '737185556881998184';

/**
 * The document describes what is really sent: the answers of a running gateway (the sandbox account, its simulator,
 * an uploaded log) are checked against the response schemas its /docs-json declares for them, field by field, with
 * no field left undescribed.
 */
/** Every route an agent calls, with a path that answers: the exchange ones are held to the document below. */
const agentCalls = (logId: string): Array<[string, string, string, unknown?]> => [
  ['POST', '/v1/ai-logs', '/v1/ai-logs', { orderId: ORDER, stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'x' }],
  ['POST', '/v1/ai-logs/batch', '/v1/ai-logs/batch', { logs: [{ stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'x' }, { stage: '' }] }],
  ['GET', '/v1/ai-logs/{id}', `/v1/ai-logs/${logId}`],
  ['GET', '/v1/positions', '/v1/positions'],
  ['GET', '/v1/income', '/v1/income'],
  ['GET', '/v1/symbol-config', '/v1/symbol-config'],
  ['GET', '/v1/orders/open', '/v1/orders/open'],
  ['GET', '/v1/orders/history', '/v1/orders/history'],
  ['GET', '/v1/orders/{orderId}', `/v1/orders/${ORDER}`],
  ['GET', '/v1/algo-orders', '/v1/algo-orders'],
  ['GET', '/v1/trades', `/v1/trades?orderId=${ORDER}`],
  ['GET', '/v1/spot/bills', '/v1/spot/bills'],
  ['GET', '/v1/orders/{orderId}/evidence', `/v1/orders/${ORDER}/evidence`],
  ['GET', '/v1/compliance/coverage', '/v1/compliance/coverage'],
  ['GET', '/v1/evidence/sync', '/v1/evidence/sync'],
  ['GET', '/v1/audit/head', '/v1/audit/head'],
  ['GET', '/v1/audit/verify', '/v1/audit/verify'],
  ['POST', '/v1/audit/checkpoints', '/v1/audit/checkpoints'],
  ['GET', '/v1/audit/checkpoints', '/v1/audit/checkpoints'],
  ['GET', '/v1/audit/public-key', '/v1/audit/public-key'],
  ['GET', '/v1/audit/witnesses', '/v1/audit/witnesses'],
  ['POST', '/v1/orders/cancel-batch', '/v1/orders/cancel-batch', { symbol: 'BTCUSDT', ids: ['1'] }],
  ['POST', '/v1/plan-orders/cancel', '/v1/plan-orders/cancel', { symbol: 'BTCUSDT', orderId: '1' }],
];

describe('the OpenAPI document matches real answers', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN, EVIDENCE_SYNC_INTERVAL_MS: '0' });
  // The document and the answers are read loosely, and checked by schemaProblems.
  let doc: any;
  let logId: string;
  const agent = () => ({ authorization: `Bearer ${suite.harness!.agentKey}`, 'content-type': 'application/json' });
  const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  const json = (res: Response): Promise<any> => res.json();

  /** Calls `path` and checks the answer against the schema the document gives `route` for its status. */
  async function answerProblems(method: string, route: string, path: string, headers: Record<string, string>, body?: unknown): Promise<string[]> {
    const res = await fetch(`${suite.harness!.apiUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const schema = doc.paths[route]?.[method.toLowerCase()]?.responses[res.status]?.content?.['application/json']?.schema;
    if (!schema) return [`${method} ${path}: ${res.status} is not a documented JSON answer`];
    return schemaProblems(await json(res), schema, doc).map((problem) => `${method} ${path} (${res.status}): ${problem}`);
  }

  beforeAll(async () => {
    doc = await (await fetch(`${suite.harness.apiUrl}/docs-json`)).json();
    const body = `{"orderId":${ORDER},"stage":"decision","model":"my-model-v1","input":{"prompt":"BTCUSDT 1h candles ...","price":64250.50},"output":{"action":"BUY","size":"0.01"},"explanation":"Momentum."}`;
    logId = (await json(await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, { method: 'POST', headers: agent(), body }))).id;
    await waitFor('the log uploaded', async () => {
      const log = await json(await fetch(`${suite.harness!.apiUrl}/v1/ai-logs/${logId}`, { headers: agent() }));
      return log.status === 'uploaded' ? log : undefined;
    });
    await suite.harness.gateway.worker!.get(EvidenceSyncService).syncAccount('default');
  }, 60_000);

  it("an agent's answers: logs, account, orders, trades, evidence, audit", async () => {
    const calls = agentCalls(logId);
    const problems = [];
    for (const [method, route, path, body] of calls) problems.push(...(await answerProblems(method, route, path, agent(), body)));
    expect(problems).toEqual([]);
  });

  it('checks every exchange route the document lists', async () => {
    // An exchange route's description names its operation and weights (specOperation), so a new one cannot be missed.
    const exchange = Object.entries(doc.paths as Record<string, Record<string, { description?: string }>>).flatMap(([route, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => /weight \d+ IP \/ \d+ UID/.test(op.description ?? ''))
        .map(([method]) => `${method.toUpperCase()} ${route}`),
    );
    const checked = new Set(agentCalls('0').map(([method, route]) => `${method} ${route}`));
    expect(exchange.length).toBeGreaterThanOrEqual(11);
    expect(exchange.filter((route) => !checked.has(route))).toEqual([]);
  });

  it("an operator's answers, the probes, and an error", async () => {
    const calls: Array<[string, string, string, Record<string, string>, unknown?]> = [
      ['GET', '/admin/accounts', '/admin/accounts', admin],
      ['GET', '/admin/accounts/{id}', '/admin/accounts/default', admin],
      ['GET', '/admin/accounts/{id}/status', '/admin/accounts/default/status', admin],
      ['POST', '/admin/agents', '/admin/agents', admin, { accountId: 'default', label: 'contract test' }],
      ['GET', '/admin/agents', '/admin/agents', admin],
      ['GET', '/admin/logs', '/admin/logs', admin],
      ['GET', '/admin/logs/{id}', `/admin/logs/${logId}`, admin],
      ['POST', '/admin/logs/retry', '/admin/logs/retry', admin, {}],
      ['GET', '/admin/queue', '/admin/queue', admin],
      ['GET', '/health/live', '/health/live', {}],
      ['GET', '/health/ready', '/health/ready', {}],
      ['GET', '/v1/orders/history', '/v1/orders/history?limit=0', agent()],
      ['GET', '/v1/positions', '/v1/positions', { authorization: 'Bearer wrong' }],
    ];
    const problems = [];
    for (const [method, route, path, headers, body] of calls) problems.push(...(await answerProblems(method, route, path, headers, body)));
    expect(problems).toEqual([]);
  });

  it("documents the guard's refusals as it sends them: a key without the scope, a wrong admin token", async () => {
    const created = await json(
      await fetch(`${suite.harness.apiUrl}/admin/agents`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ accountId: 'default', label: 'logs only', scopes: ['logs:write'] }),
      }),
    );
    const refusals = [
      ['/v1/positions', { authorization: `Bearer ${created.key}` }, 403],
      ['/admin/queue', { authorization: 'Bearer not-the-admin-token' }, 401],
    ] as const;
    for (const [path, headers, status] of refusals) {
      const res = await fetch(`${suite.harness.apiUrl}${path}`, { headers });
      const { code, message } = await json(res);
      expect([res.status, code, message]).toEqual([
        status,
        expect.any(String),
        doc.paths[path].get.responses[status].content['application/json'].example.message,
      ]);
    }
  });

  it('the checker finds what the document leaves out or gets wrong', () => {
    const schema = doc.paths['/v1/ai-logs/{id}'].get.responses['200'].content['application/json'].schema;
    const log = {
      id: 'x',
      status: 'uploaded',
      target: 'exchange',
      orderId: ORDER,
      stage: 's',
      model: 'm',
      input: {},
      output: {},
      explanation: 'e',
      modelCallIds: [],
      receivedAt: 't',
      uploadedAt: null,
      lastError: null,
      chain: null,
      attempts: [],
    };
    expect(schemaProblems(log, schema, doc)).toEqual([]);
    expect(schemaProblems({ ...log, orderId: Number(ORDER), extra: 1, status: 'lost' }, schema, doc)).toEqual([
      expect.stringContaining('$.status'),
      expect.stringContaining('$.orderId'),
      '$.extra: is not in the schema',
    ]);
  });
});
