import { apiKeyHash, parseAnswer, scriptCall, type ScriptRequest } from './redis-weight-budget.js';

describe('the Redis budget script: its request and its answer', () => {
  const keys = { ip: 'p:weex-budget:ip:default', uid: 'p:weex-budget:uid:abc' };

  it('names every key it touches, in KEYS order, and sends the typed request as one JSON argument', () => {
    const request: ScriptRequest = {
      kind: 'take',
      account: 'abc',
      weight: { ip: 2, uid: 3 },
      now: 1_700_000_000_123,
      reserve: 10,
      ip: { limit: 500, bucket: 34_000_000_002, buckets: 206, bucketMs: 50 },
      uid: { limit: 500, bucket: 34_000_000_002, buckets: 206, bucketMs: 50 },
    };
    const args = scriptCall(keys, request);
    expect(args.slice(0, 5)).toEqual([
      'p:weex-budget:ip:default:pause',
      'p:weex-budget:uid:abc:pause',
      'p:weex-budget:ip:default:by-account',
      'p:weex-budget:uid:abc:spent',
      'p:weex-budget:ip:default:spent',
    ]);
    expect(args).toHaveLength(6);
    expect(JSON.parse(args[5])).toEqual(request);
    expect(JSON.parse(scriptCall(keys, { kind: 'pause', ms: { ip: 10_250, uid: 10_250 } })[5])).toEqual({ kind: 'pause', ms: { ip: 10_250, uid: 10_250 } });
  });

  it('reads how long to wait, and refuses an answer it does not know', () => {
    expect(parseAnswer('{"wait":0}')).toBe(0);
    expect(parseAnswer('{"wait":10300}')).toBe(10_300);
    for (const raw of ['{}', '{"wait":-1}', '{"wait":"5"}', 5, null, [0, 1]]) expect(() => parseAnswer(raw)).toThrow(/unexpected weight budget answer/);
    expect(() => parseAnswer('not json')).toThrow();
  });

  it('stores a hash of the API key, never the key', () => {
    expect(apiKeyHash('secret-key')).toMatch(/^[0-9a-f]{16}$/);
    expect(apiKeyHash('secret-key')).not.toContain('secret');
  });
});
