import { gatewaySuite } from './support/gateway-suite.js';

const json = (res: Response): Promise<any> => res.json();
const KEY = 'agent-key-for-idempotency-tests';
const BODY = '{"orderId":737185556881998184,"stage":"s","model":"m","input":{},"output":{},"explanation":"e"}';

describe('Idempotency-Key on POST /v1/ai-logs', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY });

  const post = (idempotencyKey: string, body = BODY) =>
    fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body,
    });
  const count = async () => Number((await suite.db.query('SELECT count(*) FROM ai_logs')).rows[0].count);

  it('returns the first answer for the same key and body, and creates nothing more', async () => {
    if (!suite.harness) return;
    const before = await count();
    const first = await post('retry-1');
    const second = await post('retry-1');
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(second)).toEqual(await json(first));
    expect(await count()).toBe(before + 1);
  });

  it('answers 422 for the same key with a different body', async () => {
    if (!suite.harness) return;
    expect((await post('reuse-1')).status).toBe(202);
    const res = await post('reuse-1', BODY.replace('"e"', '"different"'));
    expect(res.status).toBe(422);
    expect(await json(res)).toMatchObject({ statusCode: 422, message: expect.stringMatching(/different request/) });
  });

  it('lets exactly one of many concurrent retries run; the others get its answer or 409', async () => {
    if (!suite.harness) return;
    const before = await count();
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('burst-1')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 409)).toBe(true);
    const accepted = await Promise.all(answers.filter((r) => r.status === 202).map(json));
    expect(new Set(accepted.map((a) => a.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('answers 409 while a request with the key is in flight', async () => {
    if (!suite.harness) return;
    const { IdempotencyRepository } = await import('#libs/idempotency');
    const repository = suite.harness.gateway.api.app.get(IdempotencyRepository);
    const agentKeyId = (await suite.db.query('SELECT id FROM agent_keys LIMIT 1')).rows[0].id;
    expect(await repository.reserve(agentKeyId, 'held-1', 'hash', 60_000)).toEqual({ kind: 'reserved' });
    expect(await repository.reserve(agentKeyId, 'held-1', 'hash', 60_000)).toEqual({ kind: 'in_flight' });
    expect(await repository.reserve(agentKeyId, 'held-1', 'other', 60_000)).toEqual({ kind: 'mismatch' });
    // A reservation whose request died is taken over once its lock lapses.
    expect(await repository.reserve(agentKeyId, 'held-2', 'hash', -1)).toEqual({ kind: 'reserved' });
    expect(await repository.reserve(agentKeyId, 'held-2', 'hash', 60_000)).toEqual({ kind: 'reserved' });
  });

  it('frees the key when the request fails validation, so a corrected request may use it', async () => {
    if (!suite.harness) return;
    expect((await post('fix-1', '{"stage":""}')).status).toBe(400);
    expect((await post('fix-1')).status).toBe(202);
  });

  it('keeps keys for the TTL, then purges them', async () => {
    if (!suite.harness) return;
    expect((await post('old-1')).status).toBe(202);
    const { IdempotencyPurgeScheduler } = await import('../apps/worker/src/idempotency-purge.scheduler.js');
    const purger = suite.harness.gateway.worker!.get(IdempotencyPurgeScheduler);
    expect(await purger.purge()).toBe(0);
    await suite.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-1'`);
    expect(await purger.purge()).toBe(1);
    expect((await suite.db.query(`SELECT count(*) FROM idempotency_keys WHERE key = 'old-1'`)).rows[0].count).toBe('0');
  });

  it('rejects a malformed key', async () => {
    if (!suite.harness) return;
    expect((await post('has space')).status).toBe(400);
  });
});
