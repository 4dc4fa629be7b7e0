import { startHarness } from './support/gateway-harness.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';

const json = (res: Response): Promise<any> => res.json();

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format strictly enough to fail on anything malformed. */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample) throw new Error(`not a Prometheus line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = sample[2] ?? '';
    const pairs = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    for (let m = pairs.exec(labelText); m; m = pairs.exec(labelText)) labels[m[1]] = m[2];
    if (pairs.lastIndex !== 0 && pairs.lastIndex !== labelText.length) throw new Error(`bad labels: ${line}`);
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((total, s) => total + s.value, 0);

describe('health and metrics', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: 'admin-token-for-metrics-tests' });
  const get = (path: string) => fetch(`${suite.harness!.apiUrl}${path}`);

  it('is live, and ready when PostgreSQL and the queue answer; the exchange is reported, without auth', async () => {
    const live = await get('/health/live');
    expect(live.status).toBe(200);
    expect(await json(live)).toEqual({ status: 'ok' });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(await json(ready)).toMatchObject({
      status: 'ready',
      failed: [],
      checks: { database: { ok: true, latencyMs: expect.any(Number) }, queue: { ok: true, backend: 'redis' } },
      exchange: { reachable: true, url: suite.harness.simulator.url, latencyMs: expect.any(Number), offsetMs: expect.any(Number) },
    });
  });

  it('serves Prometheus text whose counters follow the uploads: ingest +N, histogram count = attempts in PostgreSQL', async () => {
    const scrape = async () => {
      const res = await get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return parsePrometheus(await res.text());
    };
    const before = await scrape();
    expect(before.types.get('gateway_ai_logs_accepted_total')).toBe('counter');
    expect(before.types.get('gateway_upload_latency_seconds')).toBe('histogram');
    expect(before.types.get('gateway_upload_attempts_total')).toBe('counter');
    expect(before.types.get('gateway_upload_rate_limited_total')).toBe('counter');
    expect(before.types.get('gateway_ai_logs')).toBe('gauge');
    expect(before.types.get('gateway_queue_jobs')).toBe('gauge');

    const N = 4;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const res = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.harness.agentKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ stage: 'decision', model: 'm', input: { i }, output: {}, explanation: 'metrics' }),
      });
      expect(res.status).toBe(202);
      ids.push((await json(res)).id);
    }
    await waitFor('the logs to be uploaded', async () => {
      const { rows } = await suite.db.query("SELECT count(*)::int AS n FROM ai_logs WHERE id = ANY($1::uuid[]) AND status = 'uploaded'", [ids]);
      return rows[0].n === N ? true : undefined;
    });

    const after = await scrape();
    const accepted = (m: typeof before) => sum(m.samples, 'gateway_ai_logs_accepted_total', { account: 'default' });
    expect(accepted(after) - accepted(before)).toBe(N);

    const attempts = Number((await suite.db.query('SELECT count(*) AS n FROM upload_attempts')).rows[0].n);
    expect(attempts).toBeGreaterThanOrEqual(N);
    expect(sum(after.samples, 'gateway_upload_latency_seconds_count')).toBe(attempts);
    expect(sum(after.samples, 'gateway_upload_latency_seconds_bucket', { le: '+Inf' })).toBe(attempts);
    expect(sum(after.samples, 'gateway_upload_attempts_total')).toBe(attempts);
    expect(sum(after.samples, 'gateway_upload_attempts_total', { outcome: 'uploaded', http_status: '200' })).toBeGreaterThanOrEqual(N);
    // Buckets are cumulative: never fewer attempts under a larger bound.
    const buckets = after.samples.filter((s) => s.name === 'gateway_upload_latency_seconds_bucket' && s.labels.outcome === 'uploaded');
    expect(buckets.map((b) => b.value)).toEqual([...buckets.map((b) => b.value)].sort((a, b) => a - b));

    const uploaded = Number((await suite.db.query("SELECT count(*) AS n FROM ai_logs WHERE status = 'uploaded'")).rows[0].n);
    expect(sum(after.samples, 'gateway_ai_logs', { account: 'default', status: 'uploaded' })).toBe(uploaded);
    expect(sum(after.samples, 'gateway_queue_up')).toBe(1);
    expect(after.samples.some((s) => s.name === 'gateway_queue_jobs' && s.labels.state === 'completed')).toBe(true);
    for (const budget of ['ip', 'uid']) {
      expect(sum(after.samples, 'gateway_weex_weight_limit', { account: 'default', budget })).toBe(500);
      expect(after.samples.some((s) => s.name === 'gateway_weex_weight_used' && s.labels.budget === budget)).toBe(true);
    }
    expect(sum(after.samples, 'gateway_account_uploads_paused', { account: 'default' })).toBe(0);
  });

  it("adds the process's own series: Node.js runtime, and every HTTP request by route template, method and status", async () => {
    const scrape = async () => parsePrometheus(await (await get('/metrics')).text());
    const count = (m: { samples: Sample[] }, labels: Record<string, string>) => sum(m.samples, 'http_request_duration_seconds_count', labels);
    const before = await scrape();
    const posted = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.harness.agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'http metrics' }),
    });
    const { id } = await json(posted);
    expect((await fetch(`${suite.harness.apiUrl}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${suite.harness.agentKey}` } })).status).toBe(200);
    expect((await get('/no/such/path/4242')).status).toBe(404);
    const after = await scrape();

    expect(after.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(after.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(after.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(sum(after.samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(after.types.get('http_request_duration_seconds')).toBe('histogram');
    const delta = (labels: Record<string, string>) => count(after, labels) - count(before, labels);
    expect(delta({ method: 'POST', route: '/v1/ai-logs', status_code: '202' })).toBe(1);
    expect(delta({ method: 'GET', route: '/v1/ai-logs/:id', status_code: '200' })).toBe(1);
    // A path nobody routes is counted under one label, whatever the path: clients cannot grow the series.
    expect(delta({ method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(after.samples.some((s) => s.name.startsWith('http_request_duration_seconds') && s.labels.route?.includes('4242'))).toBe(false);
    // Counters of this process are not reset by the scrape that refills the shared series.
    expect(count(after, { route: '/metrics' })).toBeGreaterThan(count(before, { route: '/metrics' }));
  });
});

describe('readiness without the database', () => {
  it('answers 503 naming the database once PostgreSQL is gone, and stays live', async () => {
    const database = await createTempDatabase();
    // No worker: only the API's own use of the database is under test.
    const harness = await startHarness({ DATABASE_URL: database.url, REDIS_URL }, { worker: false });
    try {
      expect((await fetch(`${harness.apiUrl}/health/ready`)).status).toBe(200);
      await database.drop();
      const res = await fetch(`${harness.apiUrl}/health/ready`);
      expect(res.status).toBe(503);
      const body = await json(res);
      expect(body).toMatchObject({
        status: 'unready',
        failed: ['database'],
        checks: { database: { ok: false, error: expect.any(String) }, queue: { ok: true } },
      });
      expect((await fetch(`${harness.apiUrl}/health/live`)).status).toBe(200);
    } finally {
      await harness.close();
      await database.drop();
    }
  }, 60_000);
});

describe('in embedded mode (PGlite, BullMQ on PostgreSQL)', () => {
  it('is ready, serves metrics and the queue overview, and pauses and resumes', async () => {
    const harness = await startHarness({ ADMIN_TOKEN: 'admin-token-for-embedded-tests' });
    const admin = (path: string, method = 'GET') =>
      fetch(`${harness.apiUrl}${path}`, { method, headers: { authorization: 'Bearer admin-token-for-embedded-tests' } });
    try {
      const ready = await fetch(`${harness.apiUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect((await json(ready)).checks.queue).toEqual({ ok: true, backend: 'postgres' });
      const posted = await fetch(`${harness.apiUrl}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${harness.agentKey}`, 'content-type': 'application/json' },
        body: '{"stage":"s","model":"m","input":{},"output":{},"explanation":"embedded"}',
      });
      const { id } = await json(posted);
      await waitFor('the log to be uploaded', async () => ((await json(await admin(`/admin/logs/${id}`))).status === 'uploaded' ? true : undefined));
      const queue = await json(await admin('/admin/queue'));
      expect(queue).toMatchObject({ backend: 'postgres', paused: false, logs: { uploaded: 1 } });
      expect(typeof queue.jobs.waiting).toBe('number');
      const { samples } = parsePrometheus(await (await fetch(`${harness.apiUrl}/metrics`)).text());
      expect(sum(samples, 'gateway_ai_logs_accepted_total')).toBe(1);
      expect(sum(samples, 'gateway_upload_latency_seconds_count')).toBe(1);
      expect((await admin('/admin/accounts/default/pause', 'POST')).status).toBe(200);
      expect(await json(await admin('/admin/accounts/default/resume', 'POST'))).toMatchObject({ paused: false, retriesDueNow: 0 });
    } finally {
      await harness.close();
    }
  }, 60_000);
});
