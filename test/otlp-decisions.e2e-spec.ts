import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { context, trace, type Tracer } from '@opentelemetry/api';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

// A span with weex.order_id turns its trace's model calls into an AI log, uploaded like any other: the official JS
// SDK's exporters send an agent's traces as they would in production, and the log is read back through the API and at
// the exchange simulator. An exporter's retry never makes a second log; a decision sent before its calls waits for them.
const KEY = 'agent-key-for-otlp-decision-tests';
const CLIENT = 3; // SpanKind.CLIENT
const ERROR = 2; // SpanStatusCode.ERROR
const chatSpan = (answer: string, model = 'gpt-4o-mini') => ({
  kind: CLIENT,
  attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': model,
    'gen_ai.response.model': `${model}-2024-07-18`,
    'gen_ai.usage.input_tokens': 41,
    'gen_ai.usage.output_tokens': 12,
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'BTCUSDT 1h candles ... Long or short?' }] }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }]),
  },
});

describe('AI logs from traces: a span with weex.order_id', () => {
  // The settle time is longer than any gap between one test's exports, however loaded the machine.
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, TRACE_DECISION_SETTLE_MS: '3000' });
  const options = () => ({ url: `${suite.harness.apiUrl}/otlp/v1/traces`, headers: { Authorization: `Bearer ${KEY}` } });
  const get = async (path: string): Promise<any> => (await fetch(`${suite.harness.apiUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
  const logsOf = async (orderId: string): Promise<any[]> => (await get(`/v1/ai-logs?orderId=${orderId}`)).data;
  /** Exports with a fresh exporter, as a process that restarted would; answers what the SDK's callback got. */
  async function send(spans: ReadableSpan[], Exporter: new (o: ReturnType<typeof options>) => SpanExporter = ProtobufTraceExporter) {
    const exporter = new Exporter(options());
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
    await exporter.shutdown();
    return result;
  }
  /** An agent's spans, made by the SDK's tracer and kept in memory until exported. */
  async function record(make: (tracer: Tracer) => void): Promise<ReadableSpan[]> {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'btc-agent' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    });
    make(provider.getTracer('agent'));
    await provider.forceFlush();
    return memory.getFinishedSpans();
  }
  /** A decision as agents trace one: a parent span around the model calls, which names the order once it is placed. */
  const decision = (orderId: unknown, calls: string[], extra: Record<string, string> = {}) =>
    record((tracer) => {
      const parent = tracer.startSpan('decide BTCUSDT');
      const inParent = trace.setSpan(context.active(), parent);
      for (const answer of calls) tracer.startSpan('chat gpt-4o-mini', chatSpan(answer), inParent).end();
      parent.setAttributes({ 'weex.order_id': orderId as string, ...extra });
      parent.end();
    });

  it('makes one log of the trace, filled from its calls, uploaded to the exchange', async () => {
    const order = '737185556881998184';
    const spans = await decision(order, ['Funding is negative.', 'BUY 0.01: momentum and funding favour a long.'], { 'weex.stage': 'Decision Making' });
    expect(await send(spans)).toEqual({ code: 0 });
    const [listed] = await waitFor('the log', async () => ((await logsOf(order)).length > 0 ? logsOf(order) : undefined));
    const log = await waitFor('the upload', async () => {
      const view = await get(`/v1/ai-logs/${listed.id}`);
      return view.status === 'uploaded' ? view : undefined;
    });
    const calls = (await get('/v1/model-calls?limit=10')).data.filter((call: any) => call.traceId === spans[0].spanContext().traceId);
    expect(calls).toHaveLength(2);
    const inOrder = [...calls].reverse();
    expect(log).toMatchObject({
      orderId: order,
      stage: 'Decision Making',
      model: 'gpt-4o-mini-2024-07-18',
      explanation: 'BUY 0.01: momentum and funding favour a long.',
      modelCallIds: inOrder.map((call: any) => call.id),
    });
    expect(log.output.modelCalls.map((call: any) => call.text)).toEqual(['Funding is negative.', 'BUY 0.01: momentum and funding favour a long.']);
    expect(log.input.modelCalls[0].source).toBe('otlp');
    expect(log.input.modelCalls[0].request).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'BTCUSDT 1h candles ... Long or short?' }] }]);
    // What reached the exchange: the order id digit-exact, the explanation as the span's call gave it.
    const upload = suite.harness.simulator.state.uploads().find((u) => u.rawBody.includes(`"orderId":${order},`));
    expect(upload?.rawBody).toContain('"explanation":"BUY 0.01: momentum and funding favour a long."');
  });

  it('makes no second log when the exporter sends the trace again, in either encoding, or twice at once', async () => {
    const order = '737185556881998185';
    const spans = await decision(order, ['SELL'], { 'weex.explanation': 'Funding flipped.' });
    // Four at once: each records the calls or finds them recorded, and tries to make the log; one does.
    const sent = await Promise.all([send(spans), send(spans, JsonTraceExporter), send(spans), send(spans, JsonTraceExporter)]);
    expect(sent).toEqual([{ code: 0 }, { code: 0 }, { code: 0 }, { code: 0 }]);
    expect(await send(spans)).toEqual({ code: 0 });
    const logs = await logsOf(order);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ stage: 'decision', explanation: 'Funding flipped.' });
    const rows = await suite.db.query('SELECT ai_log_id::text FROM trace_decisions WHERE order_id = $1', [order]);
    expect(rows.rows).toEqual([{ ai_log_id: logs[0].id }]);
  });

  it('waits for calls exported after the decision until the trace is quiet, and leaves out calls that failed', async () => {
    const order = '737185556881998186';
    const spans = await record((tracer) => {
      const parent = tracer.startSpan('decide');
      const inParent = trace.setSpan(context.active(), parent);
      tracer.startSpan('chat gpt-4o', chatSpan('timeout'), inParent).setStatus({ code: ERROR }).end();
      tracer.startSpan('chat gpt-4o', chatSpan('Funding is negative.', 'gpt-4o'), inParent).end();
      tracer.startSpan('chat gpt-4o', chatSpan('LONG', 'gpt-4o'), inParent).end();
      parent.setAttribute('weex.order_id', order);
      parent.end();
    });
    const parent = spans.find((span) => span.name === 'decide')!;
    expect(await send([parent])).toEqual({ code: 0 });
    // Each call in an export of its own, as SimpleSpanProcessor sends them, the last one within the settle time.
    expect(await logsOf(order)).toEqual([]);
    for (const call of spans.filter((span) => span !== parent)) expect(await send([call])).toEqual({ code: 0 });
    const [log] = await waitFor('the worker to make the log', async () => ((await logsOf(order)).length > 0 ? logsOf(order) : undefined));
    expect(log).toMatchObject({ model: 'gpt-4o-2024-07-18', explanation: 'LONG' });
    const full = await get(`/v1/ai-logs/${log.id}`);
    expect(full.output.modelCalls.map((call: any) => call.text)).toEqual(['Funding is negative.', 'LONG']);
  });

  it('refuses, by name, a span sent again naming another order: a span is one decision, and the first stands', async () => {
    const [first, other, third] = ['737185556881998192', '737185556881998193', '737185556881998194'];
    const spans = await decision(first, ['LONG']);
    const post = async (...orders: string[]): Promise<any> => {
      const resourceSpans = orders.map((order) => {
        const copy = toJson(spans);
        for (const a of copy.scopeSpans[0].spans.flatMap((span) => span.attributes)) if (a.key === 'weex.order_id') a.value = { stringValue: order };
        return copy;
      });
      const answer = await fetch(options().url, {
        method: 'POST',
        headers: { ...options().headers, 'content-type': 'application/json' },
        body: JSON.stringify({ resourceSpans }),
      });
      expect(answer.status).toBe(200);
      return answer.json();
    };
    expect(await post(first)).toEqual({});
    // The same order written with leading zeros is the same decision, not a change.
    expect(await post(`00${first}`)).toEqual({});
    const again = await post(other);
    expect(again.partialSuccess.rejectedSpans).toBe('1');
    expect(again.partialSuccess.errorMessage).toMatch(new RegExp(`was recorded before with other weex\\.\\* values \\(weex\\.order_id ${first}\\)`));
    // Two copies in one export: the first of them is recorded, the other named.
    expect((await post(first, first)).partialSuccess).toBeUndefined();
    expect((await post(first, third)).partialSuccess.rejectedSpans).toBe('1');
    expect(await logsOf(other)).toEqual([]);
    expect(await logsOf(third)).toEqual([]);
    expect(await logsOf(first)).toHaveLength(1);
    // A model-call span that names its order, first seen as two copies in one export: its call, like its log, is the
    // first copy's.
    const [fourth, fifth] = ['737185556881998195', '737185556881998196'];
    const [both] = await record((tracer) => tracer.startSpan('chat gpt-4o-mini', chatSpan('SHORT')).setAttribute('weex.order_id', fourth).end());
    const copies = [fourth, fifth].map((order) => {
      const copy = toJson([both]);
      for (const a of copy.scopeSpans[0].spans[0].attributes) if (a.key === 'weex.order_id') a.value = { stringValue: order };
      return copy;
    });
    const answer = await fetch(options().url, {
      method: 'POST',
      headers: { ...options().headers, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceSpans: copies }),
    });
    expect(((await answer.json()) as any).partialSuccess.rejectedSpans).toBe('1');
    const [call] = (await get('/v1/model-calls?limit=10')).data.filter((c: any) => c.spanId === both.spanContext().spanId);
    expect(call.weexOrderId).toBe(fourth);
    await waitFor('the log', async () => ((await logsOf(fourth)).length > 0 ? true : undefined));
    expect(await logsOf(fifth)).toEqual([]);
  });

  it('keeps every call of an agent on SimpleSpanProcessor, whose exports race each other', async () => {
    const order = '737185556881998190';
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new ProtobufTraceExporter(options()) })] });
    const tracer = provider.getTracer('agent');
    const parent = tracer.startSpan('decide');
    const inParent = trace.setSpan(context.active(), parent);
    for (const answer of ['one', 'two', 'three']) tracer.startSpan('chat gpt-4o-mini', chatSpan(answer), inParent).end();
    parent.setAttribute('weex.order_id', order);
    parent.end();
    await provider.forceFlush();
    await provider.shutdown();
    const [log] = await waitFor('the log', async () => ((await logsOf(order)).length > 0 ? logsOf(order) : undefined));
    // Every call, in the order its export was committed: racing exports may commit in any order.
    expect((await get(`/v1/ai-logs/${log.id}`)).output.modelCalls.map((call: any) => call.text).sort()).toEqual(['one', 'three', 'two']);
  });

  it("makes a log of the API docs' example, as a user trying it would", async () => {
    const doc: any = await (await fetch(`${suite.harness.apiUrl}/docs-json`)).json();
    const example = doc.paths['/otlp/v1/traces'].post.requestBody.content['application/json'].examples.example.value;
    const answer = await fetch(options().url, {
      method: 'POST',
      headers: { ...options().headers, 'content-type': 'application/json' },
      body: JSON.stringify(example),
    });
    expect([answer.status, await answer.json()]).toEqual([200, {}]);
    const [log] = await logsOf('737185556881998184');
    expect(log).toMatchObject({ model: 'gpt-4o-mini', explanation: 'Momentum and funding both favour a long.' });
  });

  it('refuses a decision span whose weex.* attributes make no log, naming the attribute and the rule, and keeps the calls', async () => {
    for (const [orderId, rule] of [
      ['12ab', /weex\.order_id: orderId as a string must contain only decimal digits/],
      ['0', /weex\.order_id: orderId must be a positive integer/],
      ['9223372036854775808', /weex\.order_id: orderId must be at most 9223372036854775807/],
      [1.5, /weex\.order_id must be a string of digits or an int, not a double/],
      [-5, /weex\.order_id must be a positive integer, not -5/],
    ] as const) {
      const spans = await decision(orderId, ['HOLD'], { 'weex.stage': 'decision' });
      const answer = await fetch(options().url, {
        method: 'POST',
        headers: { ...options().headers, 'content-type': 'application/json' },
        body: JSON.stringify({ resourceSpans: [toJson(spans)] }),
      });
      expect(answer.status).toBe(200);
      const body: any = await answer.json();
      expect(body.partialSuccess.rejectedSpans).toBe('1');
      expect(body.partialSuccess.errorMessage).toMatch(rule);
      const traceId = spans[0].spanContext().traceId;
      expect((await get('/v1/model-calls?limit=50')).data.filter((call: any) => call.traceId === traceId)).toHaveLength(1);
    }
    const long = await decision('737185556881998187', ['HOLD'], { 'weex.explanation': 'x'.repeat(1001) });
    const answer = await fetch(options().url, {
      method: 'POST',
      headers: { ...options().headers, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceSpans: [toJson(long)] }),
    });
    expect(((await answer.json()) as any).partialSuccess.errorMessage).toMatch(/weex\.explanation: .*at most 1000/);
    expect(await logsOf('737185556881998187')).toEqual([]);
    // A model call's own span with a weex.stage no log can hold: the call is recorded (without it), the span refused once.
    const [call] = await record((tracer) =>
      tracer.startSpan('chat gpt-4o-mini', chatSpan('HOLD')).setAttributes({ 'weex.order_id': '737185556881998197', 'weex.stage': 'a\u0000b' }).end(),
    );
    const once: any = await (
      await fetch(options().url, {
        method: 'POST',
        headers: { ...options().headers, 'content-type': 'application/json' },
        body: JSON.stringify({ resourceSpans: [toJson([call])] }),
      })
    ).json();
    expect(once.partialSuccess).toEqual({
      rejectedSpans: '1',
      errorMessage: `1 spans refused: span ${call.spanContext().spanId} of trace ${call.spanContext().traceId} names an order but makes no AI log: weex.stage holds U+0000 or a lone surrogate, which PostgreSQL cannot store`,
    });
    const [stored] = (await get('/v1/model-calls?limit=50')).data.filter((c: any) => c.spanId === call.spanContext().spanId);
    expect(stored).toMatchObject({ weexOrderId: '737185556881998197', weexStage: null });
    // Instrumentations that record no content: the answer has no text, so the span must give the explanation.
    const silent = await record((tracer) => {
      const span = tracer.startSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' } });
      span.setAttribute('weex.order_id', '737185556881998188');
      span.end();
    });
    const refused = await fetch(options().url, {
      method: 'POST',
      headers: { ...options().headers, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceSpans: [toJson(silent)] }),
    });
    const { spanId, traceId } = silent[0].spanContext();
    const [silentCall] = (await get('/v1/model-calls?limit=50')).data.filter((c: any) => c.spanId === spanId);
    // The field, the rule, and the call by its place and its id.
    expect(((await refused.json()) as any).partialSuccess.errorMessage).toBe(
      `1 spans refused: span ${spanId} of trace ${traceId} names an order but makes no AI log: the trace's model calls: explanation is left out, ` +
        `so it is filled from the last call's answer text, but modelCallIds[0] (${silentCall.id}) answered no text: set weex.explanation`,
    );
  });

  it('lists each decision span and what became of it: logged, refused or waiting', async () => {
    const lonely = await record((tracer) => {
      const span = tracer.startSpan('decide');
      span.setAttribute('weex.order_id', '737185556881998191');
      span.end();
    });
    expect(await send(lonely)).toEqual({ code: 0 });
    const traceId = lonely[0].spanContext().traceId;
    expect((await get(`/v1/trace-decisions?traceId=${traceId}`)).data).toEqual([
      {
        traceId,
        spanId: lonely[0].spanContext().spanId,
        orderId: '737185556881998191',
        stage: 'decision',
        explanation: null,
        receivedAt: expect.any(String),
        status: 'waiting',
        aiLogId: null,
        error: null,
      },
    ]);
    const logged = (await get('/v1/trace-decisions?status=logged')).data;
    expect(logged.length).toBeGreaterThanOrEqual(4);
    for (const decision of logged) expect((await get(`/v1/ai-logs/${decision.aiLogId}`)).orderId).toBe(decision.orderId);
    const refused = (await get('/v1/trace-decisions?status=refused&limit=200')).data;
    expect(refused.map((d: any) => d.error)).toContainEqual(expect.stringMatching(/set weex\.explanation$/));
    // Refused for its type, before any rule of a log: listed too, its value as it came.
    expect(
      refused
        .filter((d: any) => ['1.5', '-5', '12ab'].includes(d.orderId))
        .map((d: any) => d.orderId)
        .sort(),
    ).toEqual(['-5', '1.5', '12ab']);
    // Page by page, two at a time: the same decisions as one page, none twice.
    const all = (await get('/v1/trace-decisions?limit=200')).data;
    const paged: any[] = [];
    for (let cursor: string | null = null, pages = 0; pages === 0 || cursor !== null; pages++) {
      const page: any = await get(`/v1/trace-decisions?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.data);
      cursor = page.nextCursor;
    }
    expect(paged).toEqual(all);
    expect(all.length).toBeGreaterThan(4);
    const bad = await fetch(`${suite.harness.apiUrl}/v1/trace-decisions?status=lost&traceId=XYZ`, { headers: { authorization: `Bearer ${KEY}` } });
    expect([bad.status, ((await bad.json()) as any).errors.map((e: any) => e.path).sort()]).toEqual([400, ['status', 'traceId']]);
    const forged = await fetch(`${suite.harness.apiUrl}/v1/trace-decisions?cursor=bm90LWEtY3Vyc29y`, { headers: { authorization: `Bearer ${KEY}` } });
    expect([forged.status, ((await forged.json()) as any).errors]).toEqual([
      400,
      [{ path: 'cursor', message: 'cursor must be the nextCursor of an earlier page' }],
    ]);
  });
});

/** The spans as OTLP/JSON's ResourceSpans, written here (not by the SDK) so that a double stays a double. */
function toJson(spans: ReadableSpan[]) {
  const value = (v: unknown) => (typeof v === 'string' ? { stringValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v });
  return {
    resource: { attributes: [{ key: 'service.name', value: { stringValue: 'btc-agent' } }] },
    scopeSpans: [
      {
        spans: spans.map((span) => ({
          traceId: span.spanContext().traceId,
          spanId: span.spanContext().spanId,
          parentSpanId: span.parentSpanContext?.spanId,
          name: span.name,
          kind: span.kind,
          startTimeUnixNano: String(BigInt(span.startTime[0]) * 1_000_000_000n + BigInt(span.startTime[1])),
          endTimeUnixNano: String(BigInt(span.endTime[0]) * 1_000_000_000n + BigInt(span.endTime[1])),
          attributes: Object.entries(span.attributes).map(([key, v]) => ({ key, value: value(v) })),
        })),
      },
    ],
  };
}
