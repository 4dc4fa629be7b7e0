import type { AttributeValue, OtlpSpan } from './otlp-span.js';
import { isModelCallSpan, readGenAiSpan } from './gen-ai-span.js';

const attributes = (entries: Record<string, AttributeValue>) => new Map(Object.entries(entries));
const span = (entries: Record<string, AttributeValue>, events: OtlpSpan['events'] = []): OtlpSpan => ({
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId: 'eee19b7ec3c1b174',
  parentSpanId: '',
  name: 'chat',
  kind: 3,
  startTimeUnixNano: 1n,
  endTimeUnixNano: 2n,
  attributes: attributes(entries),
  events,
  statusCode: 0,
  statusMessage: '',
  resource: new Map(),
});
const read = (s: OtlpSpan) => {
  const call = readGenAiSpan(s, 1_024);
  if ('reason' in call) throw new Error(call.reason);
  return call;
};

describe('which spans are model calls', () => {
  it.each([
    [{ 'openinference.span.kind': 'LLM' }, true],
    [{ 'openinference.span.kind': 'CHAIN', 'llm.model_name': 'gpt-4o' }, false],
    [{ 'gen_ai.operation.name': 'chat' }, true],
    [{ 'gen_ai.operation.name': 'generate_content' }, true],
    [{ 'gen_ai.operation.name': 'embeddings', 'gen_ai.request.model': 'text-embedding-3-small' }, false],
    [{ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': 'gpt-4o' }, false],
    [{ 'llm.request.type': 'completion' }, true],
    [{ 'llm.request.type': 'rerank' }, false],
    [{ 'traceloop.span.kind': 'workflow', 'gen_ai.request.model': 'gpt-4o' }, false],
    [{ 'gen_ai.request.model': 'gpt-4o' }, true],
    [{ 'http.request.method': 'GET' }, false],
  ])('%j: %s', (entries, expected) => {
    expect(isModelCallSpan(attributes(entries))).toBe(expected);
  });
});

describe('what a model-call span says', () => {
  it('prefers the current GenAI names to the older ones, and sums the tokens when no total is given', () => {
    const call = read(
      span({
        'gen_ai.provider.name': 'openai',
        'gen_ai.system': 'azure',
        'gen_ai.usage.input_tokens': 5n,
        'gen_ai.usage.prompt_tokens': 9n,
        'gen_ai.usage.output_tokens': 2n,
      }),
    );
    expect(call).toMatchObject({ provider: 'openai', inputTokens: 5, outputTokens: 2, totalTokens: 7 });
  });

  it('takes no token count that is not a count: negative, fractional, past 2^31-1', () => {
    for (const value of [-1n, 2n ** 31n, 1.5, '12']) expect(read(span({ 'gen_ai.usage.input_tokens': value })).inputTokens).toBeNull();
    expect(read(span({ 'gen_ai.usage.input_tokens': 12 })).inputTokens).toBe(12); // a double that is an integer, as some SDKs send
  });

  it('writes a structured prompt as JSON, int64 exact, bytes in base64, a kvlist as an object', () => {
    const message = new Map<string, AttributeValue>([
      ['role', 'user'],
      ['id', 9_223_372_036_854_775_807n],
      ['raw', new Uint8Array([1, 2, 255])],
      ['__proto__', 'data'],
    ]);
    expect(read(span({ 'gen_ai.input.messages': [message] })).input).toBe('[{"role":"user","id":9223372036854775807,"raw":"AQL/","__proto__":"data"}]');
  });

  it('reads the older prompt and completion events, and the details event', () => {
    const call = read(
      span({}, [
        { name: 'gen_ai.content.prompt', timeUnixNano: 1n, attributes: attributes({ 'gen_ai.prompt': 'p' }) },
        { name: 'gen_ai.client.inference.operation.details', timeUnixNano: 1n, attributes: attributes({ 'gen_ai.output.messages': 'o' }) },
      ]),
    );
    expect([call.input, call.output]).toEqual(['p', 'o']);
  });

  it("gathers OpenLLMetry's and OpenInference's indexed messages in their order", () => {
    const call = read(
      span({ 'llm.input_messages.1.message.role': 'user', 'llm.input_messages.0.message.role': 'system', 'llm.input_messages.0.message.content': 'be brief' }),
    );
    expect(JSON.parse(call.input)).toEqual([{ 'message.role': 'system', 'message.content': 'be brief' }, { 'message.role': 'user' }]);
  });

  it('keeps weex.order_id as digits, from an int or a string, and nothing else', () => {
    expect(read(span({ 'weex.order_id': 737185556881998184n })).weex.orderId).toBe('737185556881998184');
    expect(read(span({ 'weex.order_id': ' 42 ' })).weex.orderId).toBe('42');
    for (const value of ['BTC-1', 1.5, -3n]) expect(read(span({ 'weex.order_id': value })).weex.orderId).toBeNull();
  });

  it('refuses a span with a value over the limit, in its attributes or an event, naming the attribute', () => {
    expect(readGenAiSpan(span({ 'gen_ai.input.messages': 'é'.repeat(600) }), 1_024)).toEqual({
      reason: 'attribute gen_ai.input.messages holds 1200 bytes or more, more than OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES (1024)',
    });
    const event = { name: 'gen_ai.content.prompt', timeUnixNano: 1n, attributes: attributes({ 'gen_ai.prompt': ['x'.repeat(600), 'y'.repeat(600)] }) };
    expect(readGenAiSpan(span({}, [event]), 1_024)).toEqual({ reason: expect.stringMatching(/^attribute gen_ai.prompt holds/) });
  });
});
