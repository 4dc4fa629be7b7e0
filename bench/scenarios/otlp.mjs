import protobuf from 'protobufjs';
import pg from 'pg';
import { DURATION_S, TARGETS, WARMUP_S } from '../settings.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi } from '../support/gateway.mjs';
import { mb } from '../support/format.mjs';
import { cpuMs, RssSampler, sleep } from '../support/processes.mjs';

const SPANS = Number(process.env.BENCH_OTLP_SPANS ?? 1_000);
const CONNECTIONS = 4;
/**
 * Model calls per decision: each trace is one decision, its last call's span naming the order (weex.order_id), and
 * becomes an AI log. 0 (this scenario): no decisions; `otlp-decisions` imports `scenario` with 4.
 */
const CALLS_PER_TRACE = Number(process.env.BENCH_OTLP_CALLS_PER_DECISION ?? 0);

export const { title, run } = scenario(CALLS_PER_TRACE);

// OTLP's messages as an exporter writes them (opentelemetry-proto's field numbers), for the load's bodies.
const root = protobuf.parse(`
syntax = "proto3";
message Request { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; int64 int_value = 3; } }
`).root;

const TRACE_MARK = Buffer.from('7ace7ace7ace7ace7ace7ace7ace7ace', 'hex');
const str = (key, value) => ({ key, value: { stringValue: value } });
const int = (key, value) => ({ key, value: { intValue: value } });

/**
 * One request's body: SPANS chat spans as an instrumented agent records them (about 700 bytes each: ids, models,
 * usage, a prompt and an answer), in traces of CALLS_PER_TRACE whose last span names the order (the weex.* attributes):
 * each trace becomes one AI log. Trace ids are a mark that each request overwrites.
 */
function template(CALLS_PER_TRACE) {
  const DECISIONS = CALLS_PER_TRACE > 0;
  const start = BigInt(Date.now()) * 1_000_000n;
  const spans = Array.from({ length: SPANS }, (_, i) => ({
    traceId: TRACE_MARK,
    spanId: Buffer.from((i + 1).toString(16).padStart(16, '0'), 'hex'),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: String(start + BigInt(i) * 1_000_000n),
    endTimeUnixNano: String(start + BigInt(i) * 1_000_000n + 733_000_000n),
    attributes: [
      str('gen_ai.operation.name', 'chat'),
      str('gen_ai.provider.name', 'openai'),
      str('gen_ai.request.model', 'gpt-4o-mini'),
      str('gen_ai.response.model', 'gpt-4o-mini-2024-07-18'),
      str('gen_ai.response.id', `chatcmpl-bench-${i}`),
      int('gen_ai.usage.input_tokens', 312),
      int('gen_ai.usage.output_tokens', 48),
      str(
        'gen_ai.input.messages',
        JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: `BTCUSDT 1h candles: ${'64250.5, 64310, 64188.25, '.repeat(8)} Long or short? (${i})` }] },
        ]),
      ),
      str(
        'gen_ai.output.messages',
        JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: 'BUY 0.01: momentum and funding both favour a long.' }], finish_reason: 'stop' },
        ]),
      ),
      ...(DECISIONS && i % CALLS_PER_TRACE === CALLS_PER_TRACE - 1
        ? [int('weex.order_id', String(737185556881998184n + BigInt(i))), str('weex.stage', 'decision')]
        : []),
    ],
  }));
  const Request = root.lookupType('Request');
  const body = Buffer.from(
    Request.encode(
      Request.fromObject({ resourceSpans: [{ resource: { attributes: [str('service.name', 'bench-agent')] }, scopeSpans: [{ spans }] }] }),
    ).finish(),
  );
  const marks = [];
  for (let at = body.indexOf(TRACE_MARK); at >= 0; at = body.indexOf(TRACE_MARK, at + 1)) marks.push(at);
  if (marks.length !== SPANS) throw new Error(`found ${marks.length} trace ids in the template, expected ${SPANS}`);
  return { body, marks };
}

/** Connections that post bodies of fresh trace ids for `seconds`, counting answers; nothing counted while `warm`. */
async function load(url, { body, marks }, seconds, CALLS_PER_TRACE) {
  const DECISIONS = CALLS_PER_TRACE > 0;
  let requests = 0;
  const stats = { ok: 0, other: {}, latencies: [], warmupOk: 0 };
  const until = { warm: Date.now() + WARMUP_S * 1000, end: Date.now() + (WARMUP_S + seconds) * 1000 };
  const loop = async () => {
    while (Date.now() < until.end) {
      const copy = Buffer.from(body);
      const trace = Buffer.alloc(16);
      trace.writeUInt32BE(process.pid, 0);
      trace.writeUInt32BE(++requests, 4);
      trace.writeUInt32BE(Date.now() % 2 ** 32, 12);
      for (const [k, at] of marks.entries()) {
        trace.writeUInt32BE(DECISIONS ? Math.floor(k / CALLS_PER_TRACE) : 0, 8);
        trace.copy(copy, at);
      }
      const sent = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/x-protobuf' }, body: copy });
      const answer = Buffer.from(await res.arrayBuffer());
      const warm = Date.now() < until.warm;
      if (res.status !== 200 || answer.length > 0) stats.other[res.status] = (stats.other[res.status] ?? 0) + 1;
      else if (warm) stats.warmupOk++;
      else {
        stats.ok++;
        stats.latencies.push(performance.now() - sent);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  return stats;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** The scenario with a decision per `CALLS_PER_TRACE` model calls (0: none). */
export function scenario(CALLS_PER_TRACE) {
  const DECISIONS = CALLS_PER_TRACE > 0;
  const title = `POST /otlp/v1/traces, ${SPANS.toLocaleString('en')} GenAI spans per protobuf request, ${DECISIONS ? `an AI log per ${CALLS_PER_TRACE}` : 'no decisions'} (API process, PostgreSQL + Redis)`;
  return { title, run: () => measure(CALLS_PER_TRACE) };
}

async function measure(CALLS_PER_TRACE) {
  const DECISIONS = CALLS_PER_TRACE > 0;
  const cleanup = new Cleanup();
  try {
    const gateway = await gatewayEnvironment(cleanup);
    const api = await startApi(cleanup, gateway.env);
    const rss = new RssSampler(api.pid);
    cleanup.defer(async () => rss.stop());
    await sleep(1_000);
    const restRssMb = rss.at();
    const bodies = template(CALLS_PER_TRACE);
    const started = Date.now();
    const cpuBefore = cpuMs(api.pid);
    const stats = await load(`${api.url}/otlp/v1/traces`, bodies, DURATION_S, CALLS_PER_TRACE);
    const cpuAfter = cpuMs(api.pid);
    const seconds = (Date.now() - started) / 1000 - WARMUP_S;
    const peakRssMb = rss.maxBetween(started);
    const db = new pg.Client({ connectionString: gateway.database.url });
    await db.connect();
    const rows = (await db.query("SELECT count(*)::int AS n FROM model_calls WHERE source = 'otlp'")).rows[0].n;
    const logs = (await db.query('SELECT count(*)::int AS n FROM trace_decisions t JOIN ai_logs l ON l.id = t.ai_log_id')).rows[0].n;
    await db.end();
    const spansPerS = (stats.ok * SPANS) / seconds;
    const answered = (stats.ok + stats.warmupOk) * SPANS;
    const sorted = stats.latencies.sort((a, b) => a - b);
    const perSpanUs = ((cpuAfter.processMs - cpuBefore.processMs) * 1000) / answered;
    const machinePerSpanUs = ((cpuAfter.machineMs - cpuBefore.machineMs) * 1000) / answered;
    return {
      throughput: spansPerS,
      unit: 'spans/s',
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      rssMb: peakRssMb,
      targets: [
        // The issue's target is for spans; with decisions, each fourth span is also an AI log (ingest's own figures).
        ...(DECISIONS ? [] : [{ text: `≥ ${TARGETS.otlpSpansPerS.toLocaleString('en')} spans/s`, pass: spansPerS >= TARGETS.otlpSpansPerS }]),
        { text: 'every span answered is a row of model_calls, once', pass: rows === answered && Object.keys(stats.other).length === 0 },
        { text: 'every trace answered is an AI log, once', pass: logs === (DECISIONS ? answered / CALLS_PER_TRACE : 0) },
      ],
      details: [
        `${(stats.ok / seconds).toFixed(2)} requests/s × ${SPANS} spans (${mb(bodies.body.length / 1_048_576)} of protobuf each) over ${CONNECTIONS} connections; latencies are per request`,
        `answered 200 (warm-up included): ${stats.ok + stats.warmupOk} requests, ${answered} spans; rows in model_calls: ${rows}; AI logs of traces: ${logs}; other answers: ${JSON.stringify(stats.other)}`,
        `CPU per span (warm-up included): API process ${perSpanUs.toFixed(0)} µs, whole machine ${machinePerSpanUs.toFixed(0)} µs (PostgreSQL, Redis, this load generator and any other tenant too)`,
        `API RSS: ${mb(restRssMb)} at rest, ${mb(peakRssMb)} peak under load`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}
