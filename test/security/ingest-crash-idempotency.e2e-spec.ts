import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, RestartableApi } from '../support/restartable-api.js';
import { REDIS_URL } from '../support/services.js';
import { createTempDatabase } from '../support/temp-database.js';

const KEY = 'agent-key-for-crash-idempotency-tests';
const json = (res: Response): Promise<any> => res.json();
const log = (explanation: string) => `{"stage":"decision","model":"m","input":{"a":1},"output":{"b":2},"explanation":"${explanation}"}`;

/**
 * The API process SIGKILLed at each point of a request with an Idempotency-Key (GATEWAY_FAILPOINTS stops it inside
 * the transaction before COMMIT, or after COMMIT before the answer; the test kills it after the answer), then the
 * request retried with the same key against the API restarted: one log each time, and the first answer where the
 * first request committed.
 */
describe('Idempotency-Key across API crashes', () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  let db: pg.Client;
  let env: Record<string, string>;
  let port: number;
  let dataDir: string;
  let api: RestartableApi | undefined;

  beforeAll(async () => {
    database = await createTempDatabase();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-crash-'));
    port = await freePort();
    const prefix = `crash-key-${randomBytes(4).toString('hex')}`;
    env = { DATABASE_URL: database.url, REDIS_URL, QUEUE_PREFIX: prefix, DATA_DIR: dataDir, AGENT_API_KEY: KEY, LOG_LEVEL: 'warn' };
  }, 60_000);

  afterAll(async () => {
    await api?.stop('SIGKILL');
    await db?.end();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const post = (key: string, body: string, path: string, to = api!) =>
    fetch(`${to.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': key },
      body,
    });
  const rows = async (explanation: string) =>
    (await db.query('SELECT id::text FROM ai_logs WHERE explanation = $1 ORDER BY seq', [explanation])).rows.map((r) => r.id as string);

  /** Runs the API with the failpoint, sends the request, and waits for the process to have killed itself. */
  async function crashAt(point: string, key: string, body: string, path: string): Promise<void> {
    await api?.stop('SIGTERM');
    const crashing = await RestartableApi.start(port, { ...env, GATEWAY_FAILPOINTS: point });
    const outcome = await post(key, body, path, crashing).then(
      (res) => `answered ${res.status}`,
      () => 'no answer',
    );
    await crashing.exited;
    expect({ outcome, end: crashing.end }).toEqual({ outcome: 'no answer', end: 'SIGKILL' });
  }

  async function restart(): Promise<void> {
    await api?.stop('SIGTERM');
    api = await RestartableApi.start(port, env);
  }

  it('runs a retry afresh after a crash before the commit: one log, and no 409', async () => {
    await crashAt('before-commit', 'before-1', log('before-commit'), '/v1/ai-logs');
    expect(await rows('before-commit')).toEqual([]);
    await restart();
    const retry = await post('before-1', log('before-commit'), '/v1/ai-logs');
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const { id } = await json(retry);
    expect(await rows('before-commit')).toEqual([id]);
    const again = await post('before-1', log('before-commit'), '/v1/ai-logs');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(again)).id).toBe(id);
  }, 120_000);

  it.each([
    ['one log', '/v1/ai-logs', 202, (e: string) => log(e)],
    ['a batch', '/v1/ai-logs/batch', 207, (e: string) => `{"logs":[${log(e)},{"stage":""}]}`],
  ])(
    'replays the committed answer after a crash between the commit and the answer: %s',
    async (_what, path, status, body) => {
      const explanation = `after-commit ${path}`;
      await crashAt('after-commit', `after-${status}`, body(explanation), path);
      const committed = await rows(explanation);
      expect(committed).toHaveLength(1);
      await restart();
      const retry = await post(`after-${status}`, body(explanation), path);
      expect(retry.status).toBe(status);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const answer = await json(retry);
      expect(status === 202 ? answer.id : answer.results[0].id).toBe(committed[0]);
      if (status === 207) expect(answer.results[1]).toMatchObject({ index: 1, status: 'rejected' });
      expect(await rows(explanation)).toEqual(committed);
    },
    120_000,
  );

  it('replays the answer after a crash once it was sent', async () => {
    await restart();
    const first = await post('answered-1', log('after-answer'), '/v1/ai-logs');
    expect(first.status).toBe(202);
    const answer = await json(first);
    await api!.stop('SIGKILL');
    await restart();
    const retry = await post('answered-1', log('after-answer'), '/v1/ai-logs');
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(retry)).toEqual(answer);
    expect(await rows('after-answer')).toEqual([answer.id]);
  }, 120_000);

  it('stores one log per key when two API processes get the same key at once, and both answer with its id', async () => {
    await restart();
    const other = await RestartableApi.start(await freePort(), env);
    try {
      const keys = Array.from({ length: 30 }, (_, i) => `twice-${i}`);
      const answers = await Promise.all(
        keys.map(async (key) => {
          const [a, b] = await Promise.all([post(key, log(key), '/v1/ai-logs'), post(key, log(key), '/v1/ai-logs', other)]);
          return {
            key,
            statuses: [a.status, b.status],
            replayed: [a, b].filter((r) => r.headers.get('idempotent-replayed')).length,
            ids: [(await json(a)).id, (await json(b)).id],
          };
        }),
      );
      for (const { key, statuses, replayed, ids } of answers) {
        expect({ key, statuses, replayed, sameId: ids[0] === ids[1] }).toEqual({ key, statuses: [202, 202], replayed: 1, sameId: true });
        expect(await rows(key)).toEqual([ids[0]]);
      }
    } finally {
      await other.stop('SIGTERM');
    }
  }, 120_000);
});
