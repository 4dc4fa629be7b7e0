import pg from 'pg';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const json = (res: Response): Promise<any> => res.json();
const KEY = 'agent-key-for-idempotency-tests';
const BODY = '{"orderId":737185556881998184,"stage":"s","model":"m","input":{},"output":{},"explanation":"e"}';

describe('Idempotency-Key on POST /v1/ai-logs', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY });

  const post = (idempotencyKey: string, body = BODY, path = '/v1/ai-logs') =>
    fetch(`${suite.harness!.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body,
    });
  const count = async () => Number((await suite.db.query('SELECT count(*) FROM ai_logs')).rows[0].count);

  it('returns the first answer for the same key and body, and creates nothing more', async () => {
    const before = await count();
    const first = await post('retry-1');
    const second = await post('retry-1');
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(second)).toEqual(await json(first));
    expect(await count()).toBe(before + 1);
  });

  it('replays a batch’s answer, rejected items included', async () => {
    const before = await count();
    const batch = `{"logs":[${BODY},{"stage":""},${BODY}]}`;
    const first = await post('batch-1', batch, '/v1/ai-logs/batch');
    const second = await post('batch-1', batch, '/v1/ai-logs/batch');
    expect([first.status, second.status]).toEqual([207, 207]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const answer = await json(first);
    expect(answer.results.map((r: { status: string }) => r.status)).toEqual(['queued', 'rejected', 'queued']);
    expect(await json(second)).toEqual(answer);
    expect(await count()).toBe(before + 2);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body', async () => {
    expect((await post('reuse-1')).status).toBe(202);
    const res = await post('reuse-1', BODY.replace('"e"', '"different"'));
    expect(res.status).toBe(422);
    expect(await json(res)).toMatchObject({ statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/different request/) });
  });

  it('replays a finished request’s answer to every retry sent at once, never 409', async () => {
    const batch = `{"logs":[${BODY},{"stage":""}]}`;
    for (const [key, body, path, status] of [
      ['done-1', BODY, '/v1/ai-logs', 202],
      ['done-2', batch, '/v1/ai-logs/batch', 207],
    ] as const) {
      const first = await post(key, body, path);
      expect(first.status).toBe(status);
      const answer = await json(first);
      const before = await count();
      const retries = await Promise.all(Array.from({ length: 8 }, () => post(key, body, path)));
      expect(retries.map((r) => [r.status, r.headers.get('idempotent-replayed')])).toEqual(Array(8).fill([status, 'true']));
      for (const retry of retries) expect(await json(retry)).toEqual(answer);
      expect(await count()).toBe(before);
    }
  });

  it('lets exactly one of many concurrent retries run; the others get its answer or 409', async () => {
    const before = await count();
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('burst-1')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    expect(answers.filter((r) => r.status === 409).map((r) => r.headers.get('retry-after'))).toEqual(statuses.filter((s) => s === 409).map(() => '1'));
    const accepted = await Promise.all(answers.filter((r) => r.status === 202).map(json));
    expect(new Set(accepted.map((a) => a.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while a request with the key is in flight, and its answer once it committed', async () => {
    expect((await post('warm-up')).status).toBe(202);
    // Hold the account's chain head: the next request waits inside its transaction, before its commit.
    const holder = new pg.Client({ connectionString: suite.harness.gateway.runtime.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT * FROM audit_heads WHERE account_id = 'default' FOR UPDATE`);
      const first = post('held-1');
      await waitFor('the request to wait for the chain head', async () =>
        (await holder.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rowCount! > 0 ? true : undefined,
      );
      const second = await post('held-1');
      expect(second.status).toBe(409);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(await json(second)).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
      await holder.query('COMMIT');
      const firstAnswer = await first;
      expect(firstAnswer.status).toBe(202);
      const third = await post('held-1');
      expect(third.headers.get('idempotent-replayed')).toBe('true');
      expect(await json(third)).toEqual(await json(firstAnswer));
    } finally {
      await holder.end();
    }
  });

  it('documents the 409 of both routes with its Retry-After', async () => {
    const doc: any = await (await fetch(`${suite.harness.apiUrl}/docs-json`)).json();
    for (const path of ['/v1/ai-logs', '/v1/ai-logs/batch']) {
      expect(doc.paths[path].post.responses['409']).toMatchObject({
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
        content: { 'application/json': { example: { code: 'IDEMPOTENCY_KEY_IN_USE' } } },
      });
    }
  });

  it('frees the key when the request fails validation, so a corrected request may use it', async () => {
    expect((await post('fix-1', '{"stage":""}')).status).toBe(400);
    expect((await post('fix-1')).status).toBe(202);
    expect((await post('fix-2', '{"logs":[{"stage":""}]}', '/v1/ai-logs/batch')).status).toBe(207);
    expect((await post('fix-2', `{"logs":[${BODY}]}`, '/v1/ai-logs/batch')).headers.get('idempotent-replayed')).toBeNull();
  });

  it('stores no log of a request whose key another process recorded first, and fails none of the others in its group', async () => {
    const { AiLogService, readAiLog } = await import('#libs/ai-log');
    const { IdempotencyKeyTakenError } = await import('#libs/idempotency');
    const logs = suite.harness.gateway.api.app.get(AiLogService);
    const agentKeyId = (await suite.db.query('SELECT id FROM agent_keys LIMIT 1')).rows[0].id;
    const author = { accountId: 'default', agentKeyId };
    // What another API process committed for this key a moment ago.
    await suite.db.query(
      `INSERT INTO idempotency_keys (agent_key_id, key, request_hash, response_status, response_body) VALUES ($1, 'raced-1', 'h', 202, '{"id":"other"}')`,
      [agentKeyId],
    );
    const before = await count();
    const dto = () => readAiLog(JSON.parse(BODY.replace('737185556881998184', '1')));
    const claim = { agentKeyId, key: 'raced-1', requestHash: 'h', status: 202 };
    // Submitted in one tick: one group commit, one transaction.
    const settled = await Promise.allSettled([
      logs.accept(dto(), author),
      logs.accept(dto(), author, { claim, answer: ([accepted]) => accepted }),
      logs.accept(dto(), author),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyKeyTakenError);
    expect(await count()).toBe(before + 2);
    expect((await suite.db.query(`SELECT response_body FROM idempotency_keys WHERE key = 'raced-1'`)).rows).toEqual([{ response_body: '{"id":"other"}' }]);
  });

  it('keeps keys for the TTL, then purges them', async () => {
    expect((await post('old-1')).status).toBe(202);
    const { IdempotencyPurgeTask } = await import('../apps/worker/src/idempotency-purge.task.js');
    const purger = suite.harness.gateway.worker!.get(IdempotencyPurgeTask);
    expect(await purger.purge()).toBe(0);
    await suite.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-1'`);
    expect(await purger.purge()).toBe(1);
    expect((await suite.db.query(`SELECT count(*) FROM idempotency_keys WHERE key = 'old-1'`)).rows[0].count).toBe('0');
  });

  it('rejects a malformed key with 400 naming the header and its rule, for a single log and a batch', async () => {
    for (const [key, path] of [
      ['has space', '/v1/ai-logs'],
      ['k'.repeat(256), '/v1/ai-logs'],
      ['é', '/v1/ai-logs/batch'],
    ]) {
      const res = await post(key, path.endsWith('batch') ? `{"logs":[${BODY}]}` : BODY, path);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'idempotency-key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces' }],
      });
    }
  });
});
