import { randomUUID } from 'node:crypto';
import { AiLogRelay } from '#libs/ai-log';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-operations-tests';
const UPLOAD_PATHS = ['/capi/v3/order/uploadAiLog', '/capi/v2/order/uploadAiLog'];
const json = (res: Response): Promise<any> => res.json();

describe('admin: queue, logs, retries, pauses, account status', () => {
  // A short retry horizon, so that an exchange answering 500 makes a log `failed` within a second or two.
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN, UPLOAD_RETRY_HORIZON_MS: '1000', UPLOAD_BACKOFF_MS: '50', UPLOAD_BACKOFF_MAX_MS: '200' });

  const admin = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${init.token ?? ADMIN}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
  const adminPost = (path: string, body?: unknown) => admin(path, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

  /** Posts logs for the default account, each with `marker` in its explanation; returns their ids. */
  const postLogs = async (marker: string, n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.harness!.agentKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ stage: 'decision', model: 'm', input: { i }, output: { a: 'BUY' }, explanation: `${marker} #${i}` }),
      });
      expect(res.status).toBe(202);
      ids.push((await json(res)).id);
    }
    return ids;
  };
  const statusOf = async (id: string) => (await suite.db.query('SELECT status FROM ai_logs WHERE id = $1', [id])).rows[0].status;
  const waitForStatus = (ids: string[], status: string) =>
    waitFor(`${ids.length} log(s) to be ${status}`, async () => ((await Promise.all(ids.map(statusOf))).every((s) => s === status) ? true : undefined));
  /** Uploads the simulator recorded whose body carries the marker. */
  const simUploads = async (marker: string): Promise<number> => {
    const { uploads } = await json(await fetch(`${suite.harness!.simulator.url}/__sim/uploads`));
    return uploads.filter((u: { rawBody: string }) => u.rawBody.includes(marker)).length;
  };
  const setFaults = async (faults?: unknown) => {
    const init = faults ? { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) } : { method: 'DELETE' };
    expect((await fetch(`${suite.harness!.simulator.url}/__sim/faults`, init)).status).toBe(200);
  };
  const fieldsOf = async (res: Response) => {
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.code).toBe('VALIDATION_FAILED');
    // One entry per broken rule: a field may be named more than once.
    return [...new Set(body.errors.map((e: { path: string }) => e.path))];
  };

  it('answers 401 to every admin endpoint without the admin token or with a wrong one, and changes nothing', async () => {
    const id = randomUUID();
    const endpoints: Array<[string, string]> = [
      ['GET', '/admin/queue'],
      ['GET', '/admin/logs'],
      ['GET', `/admin/logs/${id}`],
      ['POST', `/admin/logs/${id}/retry`],
      ['POST', '/admin/logs/retry'],
      ['POST', '/admin/accounts/default/pause'],
      ['POST', '/admin/accounts/default/resume'],
      ['GET', '/admin/accounts/default/status'],
    ];
    for (const [method, path] of endpoints) {
      const none = await fetch(`${suite.harness.apiUrl}${path}`, { method });
      expect([path, none.status]).toEqual([path, 401]);
      const wrong = await admin(path, { method, token: 'not-the-admin-token-at-all', body: method === 'POST' ? '{}' : undefined });
      expect([path, wrong.status]).toEqual([path, 401]);
      expect(await json(wrong)).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    }
    const paused = await suite.db.query("SELECT uploads_paused_at FROM accounts WHERE id = 'default'");
    expect(paused.rows[0].uploads_paused_at).toBeNull();
  });

  let uploadedId: string;

  it('shows the queue: BullMQ job counts by state, and logs by status from PostgreSQL', async () => {
    const ids = await postLogs('queue-overview', 3);
    await waitForStatus(ids, 'uploaded');
    uploadedId = ids[0];
    const res = await admin('/admin/queue');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ queue: 'ai-log-upload', backend: 'redis', paused: false });
    for (const state of ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'])
      expect(typeof body.jobs[state]).toBe('number');
    const { rows } = await suite.db.query('SELECT status::text, count(*)::int AS n FROM ai_logs GROUP BY status');
    const expected = { queued: 0, uploading: 0, uploaded: 0, retrying: 0, failed: 0, ...Object.fromEntries(rows.map((r) => [r.status, r.n])) };
    expect(body.logs).toEqual(expected);
    expect(body.logs.uploaded).toBeGreaterThanOrEqual(3);
    expect((await admin('/admin/queue?x=1')).status).toBe(400);
  });

  it("shows one log's whole history, whatever its account", async () => {
    const res = await admin(`/admin/logs/${uploadedId}`);
    expect(res.status).toBe(200);
    const log = await json(res);
    expect(log).toMatchObject({ id: uploadedId, accountId: 'default', status: 'uploaded', attemptCount: 1, target: 'simulator', lastError: null });
    expect(log.attempts).toEqual([
      {
        at: expect.any(String),
        finishedAt: expect.any(String),
        latencyMs: expect.any(Number),
        target: 'simulator',
        outcome: 'uploaded',
        httpStatus: 200,
        exchangeCode: expect.any(String),
        exchangeMessage: expect.any(String),
      },
    ]);
    expect((await admin(`/admin/logs/${randomUUID()}`)).status).toBe(404);
    expect((await admin('/admin/logs/not-a-log-id')).status).toBe(404);
  });

  describe('listing', () => {
    // Fixture logs of an account of their own, written straight into PostgreSQL: every filter has a known answer.
    const ACCOUNT = 'ops-list';
    const base = Date.UTC(2026, 0, 10, 12, 0, 0);
    const fixtures: Array<{ id: string; receivedAt: number; status: string; lastError: string | null }> = [];

    beforeAll(async () => {
      await suite.db.query(`INSERT INTO accounts (id, name) VALUES ($1, 'Listing fixtures')`, [ACCOUNT]);
      await suite.db.query(`INSERT INTO agent_keys (id, account_id, key_hash, label) VALUES ($1, $2, $3, 'fixtures')`, [randomUUID(), ACCOUNT, randomUUID()]);
      const key = (await suite.db.query('SELECT id FROM agent_keys WHERE account_id = $1', [ACCOUNT])).rows[0].id;
      for (let i = 0; i < 23; i++) {
        const failed = i % 3 === 0;
        // Logs 6, 7 and 8 share one received_at, so that paging has to break the tie by id.
        const receivedAt = base + (i >= 6 && i <= 8 ? 6 : i) * 60_000;
        const lastError = failed ? (i % 2 === 0 ? 'permission: UID 8000000002 is not on the AI-log allowlist' : 'transient: system error') : null;
        const fixture = { id: randomUUID(), receivedAt, status: failed ? 'failed' : 'uploaded', lastError };
        fixtures.push(fixture);
        await suite.db.query(
          `INSERT INTO ai_logs (id, account_id, agent_key_id, stage, model, input, output, explanation, status, last_error, received_at, next_attempt_at)
           VALUES ($1, $2, $3, 's', 'm', '{}', '{}', 'fixture', $4, $5, $6, $6)`,
          [fixture.id, ACCOUNT, key, fixture.status, lastError, new Date(receivedAt)],
        );
      }
    });

    const list = async (query: string) => {
      const res = await admin(`/admin/logs?${query}`);
      expect(res.status).toBe(200);
      return json(res);
    };
    const idsOf = (items: Array<{ id: string }>) => items.map((i) => i.id).sort();

    it('pages through every log of a filter with the cursor: newest first, none twice, none missing', async () => {
      const seen: any[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: any = await list(`accountId=${ACCOUNT}&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.data.length).toBeLessThanOrEqual(5);
        seen.push(...page.data);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen.map((l) => l.id)).toHaveLength(new Set(seen.map((l) => l.id)).size);
      expect(idsOf(seen)).toEqual(idsOf(fixtures));
      const order = seen.map((l) => [Date.parse(l.receivedAt), l.id]);
      const sorted = [...order].sort((a, b) => (b[0] as number) - (a[0] as number) || String(b[1]).localeCompare(String(a[1])));
      expect(order).toEqual(sorted);
      expect(seen[0]).toMatchObject({ accountId: ACCOUNT, stage: 's', model: 'm', orderId: null, attemptCount: 0 });
    });

    it('filters by status, account, received window and a substring of the last error', async () => {
      const failed = await list(`accountId=${ACCOUNT}&status=failed&limit=500`);
      expect(idsOf(failed.data)).toEqual(idsOf(fixtures.filter((f) => f.status === 'failed')));
      expect(failed.nextCursor).toBeNull();
      const both = await list(`accountId=${ACCOUNT}&status=failed,uploaded&limit=500`);
      expect(both.data).toHaveLength(23);

      const from = new Date(base + 10 * 60_000).toISOString();
      const window = await list(`accountId=${ACCOUNT}&from=${from}&to=${base + 15 * 60_000}&limit=500`);
      expect(idsOf(window.data)).toEqual(idsOf(fixtures.filter((f) => f.receivedAt >= base + 10 * 60_000 && f.receivedAt < base + 15 * 60_000)));

      const allowlist = await list(`accountId=${ACCOUNT}&error=AI-LOG%20ALLOWLIST&limit=500`);
      expect(idsOf(allowlist.data)).toEqual(idsOf(fixtures.filter((f) => f.lastError?.includes('allowlist'))));
      expect(allowlist.data.length).toBeGreaterThan(0);
      // What is typed is the text looked for: `%` and `_` match themselves, not any text.
      expect((await list(`accountId=${ACCOUNT}&error=%25&limit=500`)).data).toEqual([]);
      expect((await list(`accountId=${ACCOUNT}&error=_&limit=500`)).data).toEqual([]);

      const otherAccount = await list('accountId=default&limit=500');
      expect(otherAccount.data.every((l: { accountId: string }) => l.accountId === 'default')).toBe(true);
      const everyone = await list('');
      expect(everyone.data).toHaveLength(Math.min(50, otherAccount.data.length + 23));
    });

    it('answers 400 naming the field for each bad parameter', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', 'limit'],
        ['limit=501', 'limit'],
        ['limit=ten', 'limit'],
        ['status=lost', 'status'],
        ['status=failed,', 'status'],
        ['from=yesterday', 'from'],
        ['to=2026-01-10T12:00:00', 'to'],
        [`from=${base}&to=${base - 1}`, 'to'],
        ['cursor=not-a-cursor', 'cursor'],
        ['colour=blue', 'colour'],
        ['status=failed&status=queued', 'status'],
      ];
      for (const [query, field] of cases) expect([query, await fieldsOf(await admin(`/admin/logs?${query}`))]).toEqual([query, [field]]);
    });

    it('reads the sync progress of an account into its status', async () => {
      await suite.db.query(
        `INSERT INTO sync_streams (account_id, stream, synced_until, last_run_at, last_success_at, last_rows, total_rows)
         VALUES ($1, 'orders', $2, $2, $2, 7, 9007199254740993)`,
        [ACCOUNT, new Date(base)],
      );
      const status = await json(await admin(`/admin/accounts/${ACCOUNT}/status`));
      expect(status.evidenceSync).toEqual([
        {
          stream: 'orders',
          syncedUntil: new Date(base).toISOString(),
          lastRunAt: new Date(base).toISOString(),
          lastSuccessAt: new Date(base).toISOString(),
          lastError: null,
          lastErrorAt: null,
          lastRows: 7,
          totalRows: '9007199254740993',
          ok: true,
        },
      ]);
      expect(status.logs).toEqual({ queued: 0, uploading: 0, uploaded: 15, retrying: 0, failed: 8 });
      // No credentials for this account in the gateway: no client, so no budget or clock to show.
      expect(status).toMatchObject({ accountId: ACCOUNT, paused: false, weightBudget: null, clockOffsetMs: null });
    });
  });

  it('retries one failed log: back to queued, queued, and uploaded once the exchange answers again', async () => {
    expect((await adminPost(`/admin/logs/${uploadedId}/retry`)).status).toBe(409);
    expect((await adminPost(`/admin/logs/${randomUUID()}/retry`)).status).toBe(404);

    await setFaults({ errorRate: 1, paths: UPLOAD_PATHS });
    const [id] = await postLogs('retry-one', 1);
    await waitForStatus([id], 'failed');
    const failed = await json(await admin(`/admin/logs/${id}`));
    expect(failed.lastError).toMatch(/over the retry horizon/);
    expect(failed.attempts.every((a: { httpStatus: number }) => a.httpStatus === 500)).toBe(true);
    await setFaults();

    const res = await adminPost(`/admin/logs/${id}/retry`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ id, status: 'queued' });
    await waitForStatus([id], 'uploaded');
    const after = await json(await admin(`/admin/logs/${id}`));
    expect(after.attempts.at(-1)).toMatchObject({ outcome: 'uploaded', httpStatus: 200 });
    expect(after.attempts.length).toBe(failed.attempts.length + 1);
    expect(await simUploads('retry-one')).toBe(1);
    expect((await adminPost(`/admin/logs/${id}/retry`)).status).toBe(409);
  });

  it('retries every failed log matching a filter, and says how many', async () => {
    expect(await fieldsOf(await adminPost('/admin/logs/retry', { from: 'soon' }))).toEqual(['from']);
    expect(await fieldsOf(await adminPost('/admin/logs/retry', { status: 'failed' }))).toEqual(['status']);
    expect(await fieldsOf(await adminPost('/admin/logs/retry', { accountId: 7 }))).toEqual(['accountId']);

    const since = Date.now() - 1;
    await setFaults({ errorRate: 1, paths: UPLOAD_PATHS });
    const ids = await postLogs('retry-filter', 3);
    await waitForStatus(ids, 'failed');
    await setFaults();

    // Another account's failed logs (the listing fixtures) match the error but not the account: they stay failed.
    const res = await adminPost('/admin/logs/retry', { accountId: 'default', from: since, error: 'SYSTEM ERROR' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ retried: 3 });
    await waitForStatus(ids, 'uploaded');
    expect(await simUploads('retry-filter')).toBe(3);
    expect((await suite.db.query("SELECT count(*)::int AS n FROM ai_logs WHERE account_id = 'ops-list' AND status = 'failed'")).rows[0].n).toBe(8);
    expect(await json(await adminPost('/admin/logs/retry', { accountId: 'default', from: since }))).toEqual({ retried: 0 });
  });

  it('pauses an account: its logs are kept and nothing is sent; resumed, they are all uploaded', async () => {
    expect((await adminPost('/admin/accounts/no-such-account/pause')).status).toBe(404);
    const paused = await adminPost('/admin/accounts/default/pause');
    expect(paused.status).toBe(200);
    const pause = await json(paused);
    expect(pause).toEqual({ accountId: 'default', paused: true, pausedAt: expect.any(String), pauseReason: 'admin' });
    // Pausing again keeps the time of the first pause.
    expect((await json(await adminPost('/admin/accounts/default/pause'))).pausedAt).toBe(pause.pausedAt);

    const ids = await postLogs('paused', 3);
    // The account's drainer is woken, finds it paused, claims nothing and ends without waking it again.
    await waitFor('the queue to hold no wake-up', async () => {
      const { jobs } = await json(await admin('/admin/queue'));
      return jobs.waiting + jobs.active + jobs.delayed === 0 ? true : undefined;
    });
    const { rows } = await suite.db.query('SELECT status::text, attempt_count FROM ai_logs WHERE id = ANY($1::uuid[])', [ids]);
    expect(rows).toEqual(ids.map(() => ({ status: 'queued', attempt_count: 0 })));
    expect(await simUploads('paused')).toBe(0);
    // Even when due, the relay leaves a paused account's logs alone.
    await suite.db.query("UPDATE ai_logs SET next_attempt_at = now() - interval '1 minute' WHERE id = ANY($1::uuid[])", [ids]);
    expect(await suite.harness.gateway.worker!.get(AiLogRelay).wakeDue(0)).toBe(0);
    expect((await suite.db.query('SELECT count(*)::int AS n FROM upload_attempts WHERE log_id = ANY($1::uuid[])', [ids])).rows[0].n).toBe(0);
    const status = await json(await admin('/admin/accounts/default/status'));
    expect(status).toMatchObject({ paused: true, pausedAt: pause.pausedAt, pauseReason: 'admin' });
    expect(status.logs.queued).toBeGreaterThanOrEqual(3);

    const resumed = await adminPost('/admin/accounts/default/resume');
    expect(resumed.status).toBe(200);
    expect(await json(resumed)).toEqual({ accountId: 'default', paused: false, pausedAt: null, pauseReason: null, retriesDueNow: 0 });
    await waitForStatus(ids, 'uploaded');
    expect(await simUploads('paused')).toBe(3);
  });

  it("shows an account's status: budget, clock, recent exchange errors, logs by status, pause", async () => {
    expect((await admin('/admin/accounts/no-such-account/status')).status).toBe(404);
    const res = await admin('/admin/accounts/default/status');
    expect(res.status).toBe(200);
    const status = await json(res);
    expect(status).toMatchObject({ accountId: 'default', name: expect.any(String), paused: false, pausedAt: null, evidenceSync: expect.any(Array) });
    for (const budget of ['ip', 'uid']) {
      expect(status.weightBudget[budget]).toEqual({ used: expect.any(Number), limit: 500, msBeforeReset: expect.any(Number), pausedMs: expect.any(Number) });
    }
    // The API process has signed nothing for the account, so it estimates the offset from one server-time call.
    expect(typeof status.clockOffsetMs).toBe('number');
    const { rows } = await suite.db.query("SELECT status::text, count(*)::int AS n FROM ai_logs WHERE account_id = 'default' GROUP BY status");
    expect(status.logs).toEqual({ queued: 0, uploading: 0, uploaded: 0, retrying: 0, failed: 0, ...Object.fromEntries(rows.map((r) => [r.status, r.n])) });
    // The retries above met HTTP 500s: the latest failed attempts are listed, newest first, with what the exchange said.
    expect(status.recentErrors.length).toBeGreaterThan(0);
    expect(status.recentErrors.length).toBeLessThanOrEqual(10);
    expect(status.recentErrors[0]).toEqual({
      logId: expect.any(String),
      at: expect.any(String),
      outcome: 'retryable',
      target: 'simulator',
      httpStatus: 500,
      exchangeCode: expect.anything(),
      exchangeMessage: expect.any(String),
    });
    const times = status.recentErrors.map((e: { at: string }) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
  });
});
