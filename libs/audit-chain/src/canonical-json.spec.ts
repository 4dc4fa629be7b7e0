import fc from 'fast-check';
import { parseJson } from '#libs/common';
import { canonicalJson, canonicalJsonSlowly } from './canonical-json.js';
import { canonicalLog, canonicalLogWith, chainHash, GENESIS_HASH } from './chain.js';
import { newSigningKeyPem, publicKeyPem, readPublicKey, readSigningKey, signCheckpoint, verifyCheckpoint } from './checkpoint-signing.js';

describe('canonical JSON', () => {
  it('sorts keys, drops whitespace, and keeps big and odd numbers as sent', () => {
    const value = parseJson('{ "b": [1, 2.50, 1E2, 123456789012345678901234567890], "a": {"y": null, "x": "é\\n"} }');
    expect(canonicalJson(value)).toBe('{"a":{"x":"é\\n","y":null},"b":[1,2.50,1E2,123456789012345678901234567890]}');
  });

  it('is stable under a parse and canonicalise round trip, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(parseJson(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('writes what the reference walker writes, for any JSON, including keys objects reorder and lossless numbers', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', '10', '9', '0', '-1', '1.5', 'a', ''));
    const odd = fc.constantFrom(...['737185556881998184', '1e400', '1E2', '0.1000000000000000000001'].map((n) => parseJson(n)));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), odd, tie('object'), fc.array(tie('tree'), { maxLength: 4 })),
      // Small objects, and ones with more keys than canonicalJson sorts by insertion.
      object: fc.oneof(
        fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 0 }), { minKeys: 12, maxKeys: 24 }),
      ),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        expect(canonicalJson(value)).toBe(canonicalJsonSlowly(value));
        const text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
        if (text !== undefined && !/__proto__/.test(text)) expect(canonicalJson(parseJson(text))).toBe(canonicalJsonSlowly(parseJson(text)));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('chain links and checkpoints', () => {
  const log = {
    accountId: 'a',
    seq: '1',
    id: 'i',
    receivedAt: '2026-11-22T10:00:00.000Z',
    agentKeyId: 'k',
    orderId: '737185556881998184',
    stage: 's',
    model: 'm',
    input: { z: 1, a: 2 },
    output: {},
    explanation: 'e',
  };

  it('hashes the previous hash followed by the canonical log, and any change moves the hash', () => {
    const canonical = canonicalLog(log);
    expect(canonical).toBe(
      '{"accountId":"a","agentKeyId":"k","explanation":"e","id":"i","input":{"a":2,"z":1},"model":"m","orderId":"737185556881998184","output":{},"receivedAt":"2026-11-22T10:00:00.000Z","seq":1,"stage":"s"}',
    );
    const hash = chainHash(GENESIS_HASH, canonical);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(chainHash(GENESIS_HASH, canonicalLog({ ...log, explanation: 'E' }))).not.toBe(hash);
    expect(chainHash('1'.repeat(64), canonical)).not.toBe(hash);
  });

  it('writes a log field by field exactly as canonicalJson writes the whole object', () => {
    const text = fc.string({ unit: 'binary' });
    const logs = fc.record({
      accountId: text,
      seq: fc.bigInt({ min: 1n, max: 2n ** 63n }).map(String),
      id: fc.uuid(),
      receivedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      agentKeyId: text,
      orderId: fc.option(fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String)),
      stage: text,
      model: text,
      input: fc.dictionary(fc.string(), fc.jsonValue()),
      output: fc.dictionary(fc.string(), fc.jsonValue()),
      explanation: text,
    });
    fc.assert(
      fc.property(logs, (log) => {
        const reference = canonicalJson({ ...log, seq: BigInt(log.seq) });
        expect(canonicalLog(log)).toBe(reference);
        expect(canonicalLogWith(log, canonicalJson(log.input), canonicalJson(log.output))).toBe(reference);
      }),
      { numRuns: 500 },
    );
  });

  it('verifies a checkpoint signature with the public key, and nothing else', () => {
    const key = readSigningKey(newSigningKeyPem());
    const statement = { accountId: 'a', seq: '7', hash: 'ab'.repeat(32), at: '2026-11-22T10:00:00.000Z' };
    const signature = signCheckpoint(key, statement);
    const publicKey = readPublicKey(publicKeyPem(key));
    expect(verifyCheckpoint(publicKey, statement, signature)).toBe(true);
    expect(verifyCheckpoint(publicKey, { ...statement, seq: '8' }, signature)).toBe(false);
    expect(verifyCheckpoint(readPublicKey(publicKeyPem(readSigningKey(newSigningKeyPem()))), statement, signature)).toBe(false);
  });
});
