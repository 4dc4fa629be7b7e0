import fc from 'fast-check';
import { parseJson } from '#libs/common';
import { canonicalJson } from './canonical-json.js';
import { canonicalLog, chainHash, GENESIS_HASH } from './chain.js';
import { newSigningKeyPem, publicKeyPem, readPublicKey, readSigningKey, signCheckpoint, verifyCheckpoint } from './checkpoint-signing.js';

describe('canonical JSON', () => {
  it('sorts keys, drops whitespace, and keeps big and odd numbers as sent', () => {
    const value = parseJson('{ "b": [1, 2.50, 1E2, 123456789012345678901234567890], "a": {"y": null, "x": "é\\n"} }');
    expect(canonicalJson(value)).toBe('{"a":{"x":"é\\n","y":null},"b":[1,2.5,1E2,123456789012345678901234567890]}');
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
});

describe('chain links and checkpoints', () => {
  const log = { accountId: 'a', seq: '1', id: 'i', receivedAt: '2026-11-22T10:00:00.000Z', agentKeyId: 'k', orderId: '737185556881998184', stage: 's', model: 'm', input: { z: 1, a: 2 }, output: {}, explanation: 'e' };

  it('hashes the previous hash followed by the canonical log, and any change moves the hash', () => {
    const canonical = canonicalLog(log);
    expect(canonical).toBe('{"accountId":"a","agentKeyId":"k","explanation":"e","id":"i","input":{"a":2,"z":1},"model":"m","orderId":"737185556881998184","output":{},"receivedAt":"2026-11-22T10:00:00.000Z","seq":1,"stage":"s"}');
    const hash = chainHash(GENESIS_HASH, canonical);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(chainHash(GENESIS_HASH, canonicalLog({ ...log, explanation: 'E' }))).not.toBe(hash);
    expect(chainHash('1'.repeat(64), canonical)).not.toBe(hash);
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
