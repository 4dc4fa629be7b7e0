import { randomBytes } from 'node:crypto';
import { gatewaySuite } from '../support/gateway-suite.js';

const ADMIN = 'admin-token-for-poison-tests';
const KEY_A = 'agent-key-of-account-a-poison';
const json = (res: Response): Promise<any> => res.json();

/** A log as JSON text; the parts are written into the text as they are, escapes included. */
const log = ({ stage = '"decision"', model = '"m"', input = '{"a":1}', output = '{"b":2}', explanation = '"why"' } = {}) =>
  `{"stage":${stage},"model":${model},"input":${input},"output":${output},"explanation":${explanation}}`;

/** Text PostgreSQL cannot store, at every place of a log, and the path the 400 must name. */
const POISONS: Array<[string, string]> = [
  [log({ explanation: '"\\ud800"' }), 'explanation'],
  [log({ explanation: '"why\\ud83d"' }), 'explanation'],
  [log({ explanation: '"\\udc00 first"' }), 'explanation'],
  [log({ stage: '"\\udc00"' }), 'stage'],
  [log({ stage: '"a\\u0000"' }), 'stage'],
  [log({ model: '"m\\ud800x"' }), 'model'],
  [log({ model: '"\\u0000"' }), 'model'],
  [log({ input: '{"a":{"b":[0,1,"\\ud800"]}}' }), 'input.a.b.2'],
  [log({ input: '{"a":{"b":[0,1,{"c":"\\udfff"}]}}' }), 'input.a.b.2.c'],
  [log({ input: '{"a":{"k\\udc00":1}}' }), 'input.a'],
  [log({ input: '{"\\ud800":1}' }), 'input'],
  [log({ input: '{"a":"x\\u0000"}' }), 'input.a'],
  [log({ input: '{"a":{"\\u0000":[]}}' }), 'input.a'],
  [log({ output: '{"x":"\\udfff"}' }), 'output.x'],
  [log({ output: '{"\\udbff":true}' }), 'output'],
  [log({ output: '{"list":["ok","\\ud83d\\ude00","\\ude00"]}' }), 'output.list.2'],
  [log({ output: '{"n":{"m":{"o":"end\\ud83d"}}}' }), 'output.n.m.o'],
  [log({ output: '{"z":"\\u0000"}' }), 'output.z'],
  [log({ explanation: '"\\u0000"' }), 'explanation'],
  [log({ input: '{"deep":[[[["\\ud800\\ud800"]]]]}' }), 'input.deep.0.0.0.0'],
];

describe('one agent cannot make other agents’ logs fail (poison pills)', () => {
  const suite = gatewaySuite(
    { AGENT_API_KEY: KEY_A, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex'), AGENT_RATE_LIMIT_PER_MIN: '0' },
    { worker: false },
  );
  let keyB: string;

  const post = (path: string, token: string, body: string) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  const admin = (path: string, body: unknown) => post(path, ADMIN, JSON.stringify(body));
  const rows = async (accountId: string, explanation: string) =>
    Number((await suite.db.query('SELECT count(*) FROM ai_logs WHERE account_id = $1 AND explanation LIKE $2', [accountId, explanation])).rows[0].count);

  beforeAll(async () => {
    const credentials = { apiKey: 'team-b-api-key', secret: 'team-b-secret-value-0123456789', passphrase: 'team-b-passphrase-value' };
    expect((await admin('/admin/accounts', { id: 'team-b', name: 'Team B', ...credentials })).status).toBe(201);
    const agent = await admin('/admin/agents', { accountId: 'team-b', label: 'hostile bot', scopes: ['logs:write'] });
    expect(agent.status).toBe(201);
    keyB = (await json(agent)).key;
  });

  it('commits all of 200 good logs from account A while account B posts 20 poisoned ones, and names each poison’s path', async () => {
    const good = Array.from({ length: 200 }, (_, i) => log({ explanation: `"a-${i}"` }));
    // Interleaved, all at once: the poisoned requests share group commits with the good ones.
    const requests = good.map((body, i) => ({ body, token: KEY_A, poison: undefined as string | undefined, i }));
    POISONS.forEach(([body, path], k) => requests.splice(k * 10 + 5, 0, { body, token: keyB, poison: path, i: k }));
    const answers = await Promise.all(requests.map(async (r) => ({ ...r, res: await post('/v1/ai-logs', r.token, r.body) })));

    expect(answers.filter((a) => a.res.status >= 500).map((a) => a.res.status)).toEqual([]);
    expect(answers.filter((a) => !a.poison).map((a) => a.res.status)).toEqual(good.map(() => 202));
    expect(await rows('default', 'a-%')).toBe(200);
    for (const a of answers.filter((a) => a.poison)) {
      expect({ poison: a.i, status: a.res.status, body: await json(a.res) }).toEqual({
        poison: a.i,
        status: 400,
        body: expect.objectContaining({ code: 'VALIDATION_FAILED', errors: [{ path: a.poison, message: expect.stringContaining(a.poison!) }] }),
      });
    }
    expect(await rows('team-b', '%')).toBe(0);
  }, 120_000);

  it('rejects only the poisoned items of a batch (207), and commits the others', async () => {
    const items = [log({ explanation: '"b-0"' }), POISONS[7][0], log({ explanation: '"b-2"' }), POISONS[10][0], POISONS[4][0]];
    const res = await post('/v1/ai-logs/batch', keyB, `{"logs":[${items.join(',')}]}`);
    expect(res.status).toBe(207);
    const { results } = await json(res);
    expect(results.map((r: { status: string }) => r.status)).toEqual(['queued', 'rejected', 'queued', 'rejected', 'rejected']);
    expect(results[1].errors).toEqual([{ path: 'logs.1.input.a.b.2', message: expect.stringContaining('input.a.b.2') }]);
    expect(results[3].errors).toEqual([{ path: 'logs.3.input', message: expect.stringMatching(/^input has a key PostgreSQL cannot store, "\\ud800"/) }]);
    expect(results[4].errors).toEqual([{ path: 'logs.4.stage', message: expect.stringContaining('U+0000') }]);
    expect(await rows('team-b', 'b-%')).toBe(2);
  });

  it('refuses such text with a 400 naming its path on every other endpoint, before it reaches PostgreSQL', async () => {
    const res = await post('/admin/agents', ADMIN, '{"accountId":"team-b","label":"bot \\ud800"}');
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'label', message: expect.stringContaining('lone UTF-16 surrogate') }],
    });
    const nul = await post('/admin/accounts', ADMIN, '{"id":"team-c","name":"C\\u0000","apiKey":"k","secret":"s","passphrase":"p"}');
    expect(nul.status).toBe(400);
    expect(await json(nul)).toMatchObject({ errors: [{ path: 'name', message: expect.stringContaining('U+0000') }] });
    expect((await suite.db.query(`SELECT count(*)::int AS n FROM agent_keys WHERE label LIKE 'bot %'`)).rows[0].n).toBe(0);
  });

  it('fails only the request whose logs PostgreSQL refuses when validation is bypassed, with a 400, and commits the rest of its group', async () => {
    const { AiLogService, CreateAiLogDto } = await import('#libs/ai-log');
    const logs = suite.harness.gateway.api.app.get(AiLogService);
    const agentKeyId = (await suite.db.query(`SELECT id FROM agent_keys WHERE account_id = 'default' LIMIT 1`)).rows[0].id;
    const author = { accountId: 'default', agentKeyId };
    const dto = (explanation: string, input: Record<string, unknown> = { a: 1 }) =>
      Object.assign(new CreateAiLogDto(), { stage: 's', model: 'm', input, output: {}, explanation });
    // Submitted in one tick: one group commit. Straight to the service, as if validation had let them through.
    const settled = await Promise.allSettled([
      logs.accept(dto('bypass-0'), author),
      logs.acceptMany([dto('bypass-1'), dto('bypass-2')], author),
      logs.accept(dto('bypass-bad', { a: { b: ['\ud800'] } }), author),
      logs.accept(dto('bypass-3'), author),
      logs.acceptMany([dto('bypass-4'), dto('bypass-bad\u0000')], author),
      logs.accept(dto('bypass-5'), author),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    for (const failed of [settled[2], settled[4]] as PromiseRejectedResult[]) {
      expect(failed.reason.getStatus()).toBe(400);
      expect(failed.reason.getResponse()).toMatchObject({ code: 'LOG_NOT_STORABLE', message: expect.stringMatching(/^PostgreSQL refused to store the log/) });
    }
    expect(await rows('default', 'bypass-%')).toBe(5);
    expect(await rows('default', 'bypass-bad%')).toBe(0);
  });
});
