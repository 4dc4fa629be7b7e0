import fc from 'fast-check';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-ingest-fuzz-tests';
const valid = { orderId: 737185556881998184n, stage: 's', model: 'm', input: { a: 1 }, output: { b: [1, 2] }, explanation: 'e' };
const fields = ['orderId', 'stage', 'model', 'input', 'output', 'explanation'] as const;

const badOrderIds = ['"12a"', '-5', '-0', '1.5', '1e30', '0', '""', '" 1"', 'true', '[1]', '{}', '9223372036854775808', '"-1"', '1E2'];
/** A value of the wrong kind for each field. */
/** Strings as JSON text that PostgreSQL cannot store: lone surrogates (either half, at either end) and U+0000. */
const unstorable = fc.constantFrom('"\\ud800"', '"\\udc00"', '"why\\ud83d"', '"\\ude00x"', '"a\\u0000"', '"\\u0000"', '"\\udbff\\udbff"');
/** Objects holding such a string as a key or a value, at any depth. */
const unstorableObject = fc.oneof(
  unstorable.map((s) => `{"k":${s}}`),
  unstorable.map((s) => `{${s}:1}`),
  fc.tuple(unstorable, fc.integer({ min: 1, max: 6 })).map(([s, depth]) => `${'{"a":['.repeat(depth)}0,${s}${']}'.repeat(depth)}`),
  fc.tuple(unstorable, fc.integer({ min: 1, max: 6 })).map(([s, depth]) => `${'{"a":'.repeat(depth)}{${s}:[]}${'}'.repeat(depth)}`),
);
const wrongValue: Record<(typeof fields)[number], fc.Arbitrary<string>> = {
  orderId: fc.constantFrom(...badOrderIds),
  stage: fc.oneof(fc.constantFrom('""', '1', 'null', '[]', '{}', 'true'), unstorable),
  model: fc.oneof(fc.constantFrom('""', '1', 'null', '[]', '{}', 'false'), unstorable),
  input: fc.oneof(fc.constantFrom('[]', '"x"', '1', 'null', 'true', '[{"a":1}]'), unstorableObject),
  output: fc.oneof(fc.constantFrom('[]', '"x"', '1', 'null', 'false'), unstorableObject),
  explanation: fc.oneof(
    fc.constantFrom('1', 'null', '[]', '{}'),
    fc.integer({ min: 1001, max: 5000 }).map((n) => JSON.stringify('x'.repeat(n))),
    unstorable,
  ),
};

const text = (value: Record<string, unknown>) =>
  `{${Object.entries(value)
    .map(
      ([k, v]) =>
        `${JSON.stringify(k)}:${typeof v === 'bigint' ? v.toString() : typeof v === 'string' && v.startsWith('\u0000') ? v.slice(1) : JSON.stringify(v)}`,
    )
    .join(',')}}`;

/** A valid log broken in at least one way: a field missing, of the wrong kind, or an unknown field added. */
const brokenLog = fc
  .record({
    missing: fc.subarray([...fields.filter((f) => f !== 'orderId')]),
    wrong: fc.subarray([...fields]),
    // Keys every object inherits too: class-validator once found its rules through a body's `constructor`.
    extra: fc.option(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !(fields as readonly string[]).includes(k) && k !== '__proto__'),
        fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf'),
      ),
    ),
  })
  .filter((b) => b.missing.length + b.wrong.length > 0 || b.extra !== null)
  .chain((b) =>
    fc.tuple(...b.wrong.map((f) => wrongValue[f])).map((values) => {
      const log: Record<string, unknown> = { ...valid };
      for (const f of b.missing) delete log[f];
      b.wrong.forEach((f, i) => (log[f] = `\u0000${values[i]}`));
      if (b.extra !== null) log[b.extra] = 1;
      return text(log);
    }),
  );

/** Bodies that are not a JSON object at all: garbage bytes, truncations, other JSON values, deep nesting. */
const notAnObject = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: 1, max: 80 }).map((cut) => text({ ...valid }).slice(0, cut)),
  fc
    .jsonValue()
    .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
    .map((v) => JSON.stringify(v) ?? 'null'),
  fc.integer({ min: 65, max: 5000 }).map((n) => `{"input":${'['.repeat(n)}${']'.repeat(n)}}`),
  fc.constantFrom(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), Buffer.from('{"stage":"\ud800"}')),
);

describe('ingest never answers 5xx and never stores bad input (property-based)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, LOG_LEVEL: 'error' });

  const post = (body: string | Buffer, path = '/v1/ai-logs') =>
    fetch(`${suite.harness!.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });

  it.each([
    ['a broken log', brokenLog, '/v1/ai-logs'],
    ['a body that is not an object', notAnObject, '/v1/ai-logs'],
    ['a batch of broken logs', fc.array(brokenLog, { minLength: 1, maxLength: 5 }).map((logs) => `{"logs":[${logs.join(',')}]}`), '/v1/ai-logs/batch'],
  ])(
    '%s gets a 4xx (207 with every item rejected for a batch) and stores nothing',
    async (_name, arbitrary, path) => {
      await fc.assert(
        fc.asyncProperty(arbitrary as fc.Arbitrary<string | Buffer>, async (body) => {
          const res = await post(body, path);
          const answer = (await res.json()) as { errors?: unknown[]; results?: Array<{ status: string }> };
          if (path.endsWith('batch') && res.status === 207) {
            expect(answer.results!.every((r) => r.status === 'rejected')).toBe(true);
          } else {
            expect(res.status).toBeGreaterThanOrEqual(400);
            expect(res.status).toBeLessThan(500);
          }
        }),
        { numRuns: 700 },
      );
      expect(Number((await suite.db.query('SELECT count(*) FROM ai_logs')).rows[0].count)).toBe(0);
    },
    120_000,
  );

  it.each([
    ['a stage', '{"stage":"a\\u0000b","model":"m","input":{"a":1},"output":{"b":2},"explanation":"e"}', 'stage'],
    ['an input key', '{"stage":"a","model":"m","input":{"k\\u0000":1},"output":{"b":2},"explanation":"e"}', 'input'],
    ['an output value, deep', '{"stage":"a","model":"m","input":{"a":1},"output":{"b":[{"c":"\\u0000"}]},"explanation":"e"}', 'output.b.0.c'],
  ])('refuses U+0000 in %s with a 400 naming its path, and in a batch rejects that log alone', async (_where, log, path) => {
    const res = await post(log);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path, message: expect.stringContaining('U+0000') }] });
    const good = '{"stage":"a","model":"m","input":{"a":1},"output":{"b":2},"explanation":"e"}';
    const batch = await post(`{"logs":[${good},${log}]}`, '/v1/ai-logs/batch');
    expect(batch.status).toBe(207);
    expect(((await batch.json()) as { results: unknown[] }).results).toEqual([
      expect.objectContaining({ index: 0, status: 'queued' }),
      { index: 1, status: 'rejected', errors: [{ path: `logs.1.${path}`, message: expect.stringContaining('U+0000') }] },
    ]);
    expect((await post('{"stage":"a\\\\u0000 is text","model":"m","input":{"a":1},"output":{"b":2},"explanation":"e"}')).status).toBe(202);
    await suite.db.query('DELETE FROM ai_logs');
  });

  it('refuses a raw U+0000, which JSON only allows escaped, as malformed JSON', async () => {
    const res = await post('{"stage":"a","model":"m","input":{"a":1},"output":{"b":2},"explanation":"e\u0000"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it('keeps numbers in input and output exactly as written: in the stored row, in GET, and in the upload the exchange receives', async () => {
    const numbers = '[-0,-0.0,1.50,1E2,1e-7,0.0000001,-3E+0,5.0,0.10,737185556881998184,1e400,2.5,-0.5,0]';
    const input = `{"n":${numbers},"m":{"x":-0}}`;
    const output = '{"size":1.50,"z":-0.0}';
    const res = await post(`{"stage":"s","model":"m","input":${input},"output":${output},"explanation":"numbers as written"}`);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect((await suite.db.query('SELECT input, output FROM ai_logs WHERE id = $1', [id])).rows).toEqual([{ input, output }]);
    const view = await (await fetch(`${suite.harness.apiUrl}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).text();
    expect(view).toContain(`"input":${input},"output":${output}`);
    const upload = await waitFor('the upload', async () => suite.harness!.simulator.state.uploads().find((u) => u.rawBody.includes('numbers as written')));
    expect(upload.rawBody).toContain(`"input":${input},"output":${output}`);
    await suite.db.query('DELETE FROM ai_logs');
  });

  it.each(badOrderIds)('refuses orderId %s with a 400 naming orderId', async (orderId) => {
    const res = await post(text({ ...valid, orderId: `\u0000${orderId}` }));
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { errors: Array<{ path: string }> };
    expect(answer.errors.map((e) => e.path)).toEqual(['orderId']);
  });

  it('names the field and the rule in each answer to a broken log', async () => {
    await fc.assert(
      fc.asyncProperty(brokenLog, async (body) => {
        const answer = (await (await post(body)).json()) as { errors: Array<{ path: string; message: string }> };
        expect(answer.errors.length).toBeGreaterThan(0);
        for (const error of answer.errors) expect(error.message).toContain(error.path || 'body');
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
