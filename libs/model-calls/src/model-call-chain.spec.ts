import { GENESIS_HASH } from '#libs/audit-chain';
import { type ModelCallLink, modelCallHash, NO_SPAN, placedLinkHash, unplacedLink } from './model-call-chain.js';

const call: Omit<ModelCallLink, 'seq'> = {
  source: 'otlp',
  ...NO_SPAN,
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId: 'eee19b7ec3c1b174',
  // A value that holds the key's text, escaped as JSON escapes it: it must not be taken for the key.
  spanName: 'chat "seq":0 ,"seq":0,',
  id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
  accountId: 'default',
  agentKeyId: 'key',
  method: null,
  path: null,
  upstreamUrl: null,
  requestedModel: 'gpt-4o-mini',
  answeredModel: null,
  responseId: null,
  httpStatus: null,
  outcome: 'answered',
  error: null,
  promptTokens: 41,
  completionTokens: 12,
  totalTokens: 53,
  startedAt: '2026-11-28T11:00:00.000Z',
  firstByteAt: null,
  finishedAt: '2026-11-28T11:00:00.733Z',
  requestSha256: 'a'.repeat(64),
  responseSha256: 'b'.repeat(64),
};

describe('a link made before its place in the chain', () => {
  it('hashes as the whole link does, at any seq', () => {
    for (const seq of [1n, 42n, 9_223_372_036_854_775_807n]) {
      expect(placedLinkHash(GENESIS_HASH, unplacedLink(call), seq)).toBe(modelCallHash(GENESIS_HASH, { ...call, seq: seq.toString() }));
    }
  });

  it("leaves a proxy call's link as it was before spans were recorded: no source, no span fields", () => {
    const proxy = { ...call, ...NO_SPAN, source: 'proxy' as const, seq: '7' };
    const {
      source: _source,
      traceId: _t,
      spanId: _s,
      parentSpanId: _p,
      spanName: _n,
      serviceName: _v,
      provider: _r,
      operation: _o,
      weexOrderId: _w,
      weexStage: _g,
      weexExplanation: _e,
      ...before
    } = proxy;
    expect(modelCallHash(GENESIS_HASH, proxy)).toBe(modelCallHash(GENESIS_HASH, before as ModelCallLink));
    expect(unplacedLink(proxy).head).not.toContain('source');
  });
});
