import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { GENESIS_HASH } from '#libs/audit-chain';
import { applyMigrations, type PrismaService, SqlPool } from '#libs/database';
import { modelCallHash, NO_SPAN } from '#libs/model-calls';
import { ModelCallsRepository, type NewModelCall, type StoredModelCall } from '../libs/model-calls/src/model-calls.repository.js';
import { createTempDatabase } from './support/temp-database.js';

// The proxy's records are placed after the last link its process committed, in one round trip, and only if that is
// still the chain's head: other API processes, and OTLP exports, append to the same chains. Two repositories on one
// database stand for two processes here.
describe('model-call records from two processes, each placing its records after the head it last saw', () => {
  let drop = async () => {};
  let db: pg.Client;
  const pools: SqlPool[] = [];
  /** Each repository's pool counts the statements its transactions send (one query call is one round trip). */
  const roundTrips = new Map<SqlPool, number>();
  const counted = new WeakSet<object>();
  /** What runs before each statement a pool's client sends: another process's write, at the worst moment. */
  const interrupt = new Map<SqlPool, () => Promise<void>>();

  beforeAll(async () => {
    const temp = await createTempDatabase();
    drop = temp.drop;
    db = new pg.Client({ connectionString: temp.url });
    await db.connect();
    await applyMigrations(db);
    await db.query(`INSERT INTO accounts (id, name) VALUES ('default', 'Default account')`);
    await db.query(`INSERT INTO agent_keys (id, account_id, key_hash, label) VALUES ('key-1', 'default', 'hash', 'test')`);
    for (let i = 0; i < 2; i++) {
      const pool = new SqlPool(temp.url);
      const connect = pool.connect.bind(pool);
      pool.connect = (async () => {
        const client = await connect();
        if (counted.has(client)) return client; // the pool hands the same clients out again
        counted.add(client);
        const query = client.query.bind(client);
        client.query = (async (...args: Parameters<typeof query>) => {
          await interrupt.get(pool)?.();
          roundTrips.set(pool, (roundTrips.get(pool) ?? 0) + 1);
          return query(...args);
        }) as typeof query;
        return client;
      }) as typeof pool.connect;
      pools.push(pool);
    }
  });
  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await db?.end();
    await drop();
  });

  const repositories = () => pools.map((pool) => new ModelCallsRepository(undefined as unknown as PrismaService, pool));
  const call = (content: string, source: 'proxy' | 'otlp' = 'proxy'): NewModelCall => ({
    ...NO_SPAN,
    ...(source === 'otlp' ? { traceId: randomUUID().replaceAll('-', ''), spanId: randomUUID().slice(0, 16) } : {}),
    source,
    id: randomUUID(),
    accountId: 'default',
    agentKeyId: 'key-1',
    method: 'POST',
    path: '/chat/completions',
    upstreamUrl: 'http://127.0.0.1:1',
    requestedModel: 'm',
    answeredModel: 'm',
    responseId: null,
    httpStatus: 200,
    outcome: 'answered',
    error: null,
    promptTokens: 1,
    completionTokens: 1,
    totalTokens: 2,
    startedAt: new Date().toISOString(),
    firstByteAt: null,
    finishedAt: new Date().toISOString(),
    requestSha256: 'a'.repeat(64),
    responseSha256: 'b'.repeat(64),
    requestBody: `{"content":"${content}"}`,
    responseBody: `answer to ${content}`,
    responseEncoding: 'utf8',
  });
  const tripsOf = async (pool: SqlPool, work: () => Promise<unknown>): Promise<number> => {
    const before = roundTrips.get(pool) ?? 0;
    await work();
    return (roundTrips.get(pool) ?? 0) - before;
  };

  it('commits in one round trip after its own last link, and in two tries when another process appended since', async () => {
    const [a, b] = repositories();
    const [poolA, poolB] = pools;
    expect(await tripsOf(poolA, () => a.append(call('first')))).toBe(1); // an empty chain: its head is known
    expect(await tripsOf(poolA, () => a.append(call('second')))).toBe(1);
    expect(await tripsOf(poolB, () => b.append(call('third')))).toBe(2); // the head this process has not seen
    expect(await tripsOf(poolA, () => a.append(call('fourth')))).toBe(2); // B appended since A's last
    expect(await tripsOf(poolA, () => a.append(call('fifth')))).toBe(1);
    // An export's spans, appended under the same lock, move the head this process knows.
    await a.appendSpans('default', [call('a span', 'otlp')]);
    expect(await tripsOf(poolA, () => a.append(call('sixth')))).toBe(1);
    const { rows } = await db.query(`SELECT seq::int, request_body FROM model_calls m ORDER BY m.seq`);
    expect(rows).toEqual(
      ['first', 'second', 'third', 'fourth', 'fifth', 'a span', 'sixth'].map((content, i) => ({ seq: i + 1, request_body: `{"content":"${content}"}` })),
    );
  });

  it('reads the heads under the lock when another process appended before each of two tries', async () => {
    const [a, b] = repositories();
    const [poolA] = pools;
    await a.append(call('known head'));
    let interruptions = 2;
    interrupt.set(poolA, async () => void (interruptions-- > 0 && (await b.append(call(`interruption ${interruptions}`)))));
    let stored!: StoredModelCall;
    // Two tries that find another head each, then the heads read under the lock, and the INSERT with COMMIT.
    const trips = await tripsOf(poolA, async () => (stored = await a.append(call('after the interruptions')))).finally(() => interrupt.delete(poolA));
    expect(trips).toBe(4);
    const { rows } = await db.query(`SELECT seq::text, request_body, prev_hash FROM model_calls m ORDER BY m.seq DESC LIMIT 2`);
    expect(rows[0]).toEqual({ seq: stored.seq, request_body: '{"content":"after the interruptions"}', prev_hash: stored.prevHash });
    expect(rows[1].request_body).toBe('{"content":"interruption 0"}');
    expect(await tripsOf(poolA, () => a.append(call('then one again')))).toBe(1);
  });

  it('keeps one unbroken chain while both write at once, every call once, as each was told', async () => {
    const [a, b] = repositories();
    const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM model_calls')).rows[0].n;
    const [stored] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).append(call(`at once ${i}`)))),
      Promise.all([a, b].map((repository) => repository.appendSpans('default', [call('span', 'otlp')]))),
    ]);
    const told = new Map<string, StoredModelCall>(stored.map((link) => [link.seq, link]));
    const { rows } = await db.query<{ seq: string; id: string; prev_hash: string; hash: string }>(
      `SELECT seq::text, id::text, prev_hash, hash FROM model_calls m ORDER BY m.seq`,
    );
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => String(i + 1)));
    expect(rows.length).toBe(before + 40 + 2);
    let prevHash = GENESIS_HASH;
    for (const row of rows) {
      expect(row.prev_hash).toBe(prevHash);
      const link = told.get(row.seq);
      if (link) {
        expect(link).toMatchObject({ id: row.id, prevHash: row.prev_hash, hash: row.hash });
        const { prevHash: _prev, hash: _hash, ...fields } = link;
        expect(modelCallHash(prevHash, fields)).toBe(row.hash);
      }
      prevHash = row.hash;
    }
    expect(told.size).toBe(40);
  });
});
