import { createHash } from 'node:crypto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { canonicalJson, chainHash, GENESIS_HASH } from '#libs/audit-chain';
import { gatewaySuite } from './support/gateway-suite.js';

// "Log with no code" for agents that already trace their model calls with OpenTelemetry: the official JS SDK's OTLP
// exporters (binary protobuf, gzipped, and JSON) send to <gateway>/otlp with the agent key in a header, as
// OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS would set them, and the model-call spans come back from
// GET /v1/model-calls with the fields the GenAI conventions gave them.
const KEY = 'agent-key-for-otlp-tests';
const CLIENT = 3; // SpanKind.CLIENT
const ERROR = 2; // SpanStatusCode.ERROR
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('OpenTelemetry traces in (OTLP/HTTP, the official JS exporters)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const options = () => ({ url: `${suite.harness.apiUrl}/otlp/v1/traces`, headers: { Authorization: `Bearer ${KEY}` } });
  const get = async (path: string): Promise<any> => (await fetch(`${suite.harness.apiUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
  const bySpan = async () => new Map<string, any>((await get('/v1/model-calls?limit=200')).data.map((call: any) => [call.spanId, call]));
  const export_ = (exporter: SpanExporter, spans: ReadableSpan[]) => new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));

  /** Spans made by the SDK's tracer, as an instrumented agent makes them, kept in memory until exported. */
  async function record(make: (tracer: ReturnType<TracerProvider['getTracer']>) => void): Promise<ReadableSpan[]> {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'btc-agent' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    });
    make(provider.getTracer('otlp-test'));
    await provider.forceFlush();
    const spans = memory.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    return spans;
  }

  it('records the GenAI spans a protobuf exporter sends gzipped (three conventions), and drops the others', async () => {
    const spans = await record((tracer) => {
      const chat = tracer.startSpan('chat gpt-4o-mini', {
        kind: CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.response.id': 'chatcmpl-otlp-1',
          'gen_ai.usage.input_tokens': 41,
          'gen_ai.usage.output_tokens': 12,
          'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"BTCUSDT 1h candles ..."}]}]',
          'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"text","content":"BUY 0.01"}],"finish_reason":"stop"}]',
          'weex.order_id': '737185556881998184',
          'weex.stage': 'decision',
          'weex.explanation': 'Momentum and funding both favour a long.',
        },
      });
      chat.end();
      const openInference = tracer.startSpan('ChatCompletion', {
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'claude-sonnet',
          'llm.provider': 'anthropic',
          'llm.token_count.prompt': 100,
          'llm.token_count.completion': 20,
          'llm.token_count.total': 120,
          'input.value': 'Funding turned negative overnight. Long or short?',
          'output.value': 'SHORT',
        },
      });
      openInference.end();
      const traceloop = tracer.startSpan('openai.chat', {
        attributes: {
          'llm.request.type': 'chat',
          'gen_ai.system': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.prompt_tokens': 7,
          'gen_ai.usage.completion_tokens': 3,
          'llm.usage.total_tokens': 10,
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': 'Long or short?',
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.content': 'LONG',
        },
      });
      traceloop.end();
      tracer.startSpan('GET /v1/positions', { attributes: { 'http.request.method': 'GET' } }).end();
      tracer.startSpan('agent.decide', { attributes: { 'traceloop.span.kind': 'workflow', 'gen_ai.request.model': 'gpt-4o' } }).end();
    });
    const exporter = new ProtobufTraceExporter({ ...options(), compression: 'gzip' as never });
    expect(await export_(exporter, spans)).toEqual({ code: 0 });
    await exporter.shutdown();

    const calls = await bySpan();
    const [chat, openInference, traceloop, http, workflow] = spans.map((span) => calls.get(span.spanContext().spanId));
    expect([http, workflow]).toEqual([undefined, undefined]);
    expect(chat).toMatchObject({
      source: 'otlp',
      method: null,
      path: null,
      traceId: spans[0].spanContext().traceId,
      spanName: 'chat gpt-4o-mini',
      serviceName: 'btc-agent',
      provider: 'openai',
      operation: 'chat',
      requestedModel: 'gpt-4o-mini',
      answeredModel: 'gpt-4o-mini-2024-07-18',
      responseId: 'chatcmpl-otlp-1',
      outcome: 'answered',
      usage: { promptTokens: 41, completionTokens: 12, totalTokens: 53 },
      weexOrderId: '737185556881998184',
      weexStage: 'decision',
      weexExplanation: 'Momentum and funding both favour a long.',
      startedAt: new Date(spans[0].startTime[0] * 1000 + Math.floor(spans[0].startTime[1] / 1e6)).toISOString(),
    });
    const detail = await get(`/v1/model-calls/${chat.id}`);
    expect(detail.requestBody).toBe('[{"role":"user","parts":[{"type":"text","content":"BTCUSDT 1h candles ..."}]}]');
    expect(detail.responseBody).toBe('[{"role":"assistant","parts":[{"type":"text","content":"BUY 0.01"}],"finish_reason":"stop"}]');
    expect([detail.requestSha256, detail.responseSha256]).toEqual([sha256(detail.requestBody), sha256(detail.responseBody)]);
    expect(openInference).toMatchObject({
      provider: 'anthropic',
      requestedModel: 'claude-sonnet',
      usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
    });
    expect((await get(`/v1/model-calls/${openInference.id}`)).requestBody).toBe('Funding turned negative overnight. Long or short?');
    expect(traceloop).toMatchObject({
      provider: 'openai',
      operation: 'chat',
      requestedModel: 'gpt-4o',
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 },
    });
    const traceloopDetail = await get(`/v1/model-calls/${traceloop.id}`);
    expect(JSON.parse(traceloopDetail.requestBody)).toEqual([{ role: 'user', content: 'Long or short?' }]);
    expect(JSON.parse(traceloopDetail.responseBody)).toEqual([{ role: 'assistant', content: 'LONG' }]);
  });

  it('records what the JSON exporter sends: the older prompt and completion events, an error status', async () => {
    const spans = await record((tracer) => {
      const span = tracer.startSpan('chat gpt-4o', {
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o' },
      });
      span.addEvent('gen_ai.content.prompt', { 'gen_ai.prompt': '[{"role":"user","content":"Long or short?"}]' });
      span.addEvent('gen_ai.content.completion', { 'gen_ai.completion': '[{"role":"assistant","content":"HOLD"}]' });
      span.end();
      const failed = tracer.startSpan('chat gpt-4o', {
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'error.type': '429' },
      });
      failed.setStatus({ code: ERROR, message: 'rate limited by the provider' });
      failed.end();
    });
    const exporter = new JsonTraceExporter(options());
    expect(await export_(exporter, spans)).toEqual({ code: 0 });
    await exporter.shutdown();
    const calls = await bySpan();
    const [events, failed] = spans.map((span) => calls.get(span.spanContext().spanId));
    expect(events).toMatchObject({ outcome: 'answered', provider: 'openai', error: null });
    const detail = await get(`/v1/model-calls/${events.id}`);
    expect([detail.requestBody, detail.responseBody]).toEqual(['[{"role":"user","content":"Long or short?"}]', '[{"role":"assistant","content":"HOLD"}]']);
    expect(failed).toMatchObject({ outcome: 'failed', error: 'rate limited by the provider' });
  });

  it("stores a span once when the exporter sends it again (a retry), and keeps the account's chain whole", async () => {
    const spans = await record((tracer) => {
      for (const model of ['gpt-4o-mini', 'gpt-4o'])
        tracer.startSpan(`chat ${model}`, { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model } }).end();
    });
    const before = (await suite.db.query('SELECT count(*)::int AS n FROM model_calls')).rows[0].n;
    for (const exporter of [new ProtobufTraceExporter(options()), new ProtobufTraceExporter(options()), new JsonTraceExporter(options())]) {
      expect(await export_(exporter, spans)).toEqual({ code: 0 });
      await exporter.shutdown();
    }
    const ids = spans.map((span) => span.spanContext().spanId);
    const rows = (await suite.db.query('SELECT span_id FROM model_calls WHERE span_id = ANY($1)', [ids])).rows;
    expect(rows.map((row) => row.span_id).sort()).toEqual([...ids].sort());
    expect((await suite.db.query('SELECT count(*)::int AS n FROM model_calls')).rows[0].n).toBe(before + 2);

    // Each link's hash is SHA-256 of the previous one's and its canonical JSON: spans (all fields) and proxy calls alike.
    const { data } = await get('/v1/model-calls?limit=200');
    let prevHash = GENESIS_HASH;
    for (const call of [...data].reverse()) {
      const { chain, usage, ...fields } = call;
      const link = { ...fields, seq: BigInt(chain.seq), ...usage };
      expect(chain.prevHash).toBe(prevHash);
      expect(chainHash(prevHash, canonicalJson(link))).toBe(chain.hash);
      prevHash = chain.hash;
    }
  });
});
