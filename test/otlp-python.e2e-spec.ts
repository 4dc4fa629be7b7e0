import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gatewaySuite } from './support/gateway-suite.js';

// Spans from Python, as agents' Python sends them: the README's OpenTelemetry example run as written (its URL and key
// aside) with the SDK's OTLP/HTTP exporter, and a request encoded by the official Python bindings of the OTLP messages
// (opentelemetry-proto), with 64-bit maxima and a structured attribute. The packages are in the project's .venv, which
// .ci/run makes (the SDK from test/vendor/python); without them each test is a visible skip, except with CI=true.
const ROOT = new URL('..', import.meta.url).pathname;
const PYTHON = join(ROOT, '.venv/bin/python');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('#### From OpenTelemetry traces'));
const SNIPPET = /```python\n([\s\S]*?)```/.exec(SECTION)![1];
const KEY = 'agent-key-for-otlp-python-tests';

function missingModules(modules: string, install: string): string | undefined {
  if (!existsSync(PYTHON)) return `no ${PYTHON}: python3 -m venv .venv && .venv/bin/pip install ${install} (see .ci/run)`;
  if (spawnSync(PYTHON, ['-c', `import ${modules}`], { stdio: 'ignore' }).status !== 0)
    return `${PYTHON} cannot import ${modules}: .venv/bin/pip install ${install}`;
  return undefined;
}

/** `it`, or a visible skip without the packages outside CI. */
function gated(what: string, missing: string | undefined): typeof it {
  const skip = missing !== undefined && process.env.CI !== 'true';
  if (skip) console.warn(`SKIPPED: ${what}: ${missing}`);
  return skip ? it.skip : it;
}

const sdkMissing = missingModules(
  'opentelemetry.sdk.trace, opentelemetry.exporter.otlp.proto.http.trace_exporter',
  'opentelemetry-sdk opentelemetry-exporter-otlp-proto-http',
);
const protoMissing = missingModules('opentelemetry.proto.collector.trace.v1.trace_service_pb2', 'opentelemetry-proto');
const itWithSdk = gated("the Python SDK's OTLP exporter through the gateway", sdkMissing);
const itWithProto = gated('OTLP requests encoded by the Python bindings', protoMissing);

describe('OpenTelemetry traces in, from Python', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const python = async (code: string, missing: string | undefined): Promise<string> => {
    if (missing) throw new Error(`${missing}; with CI=true this is a failure, not a skip`);
    return (await promisify(execFile)(PYTHON, ['-c', code], { encoding: 'utf8', timeout: 60_000 })).stdout;
  };
  const calls = async (where: string, values: unknown[]) => (await suite.db.query(`SELECT * FROM model_calls WHERE ${where}`, values)).rows;

  itWithSdk("runs the README's example: the exporter's span is a model call", async () => {
    await python(SNIPPET.replaceAll('http://127.0.0.1:3000', suite.harness.apiUrl).replaceAll('agk_...', KEY), sdkMissing);
    const [call] = await calls("span_name = 'chat gpt-4o-mini' AND source = 'otlp'", []);
    expect(call).toMatchObject({
      requested_model: 'gpt-4o-mini',
      provider: 'openai',
      prompt_tokens: 41,
      completion_tokens: 12,
      weex_order_id: '737185556881998184',
    });
    const logs = await suite.db.query('SELECT explanation, model_call_ids::text[] AS calls FROM ai_logs WHERE order_id = 737185556881998184');
    expect(logs.rows).toEqual([{ explanation: 'Momentum and funding both favour a long.', calls: [call.id] }]);
  });

  itWithProto('records a gzipped request of the official bindings: int64 maxima exact, a structured attribute as JSON', async () => {
    const out = await python(
      `
import gzip, json, urllib.request
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue, KeyValueList

def kv(key, **value):
    return KeyValue(key=key, value=AnyValue(**value))

request = ExportTraceServiceRequest()
span = request.resource_spans.add().scope_spans.add().spans.add()
span.trace_id = bytes.fromhex("ffffffffffffffffffffffffffffffff")
span.span_id = bytes.fromhex("ffffffffffffffff")
span.name = "chat claude"
span.start_time_unix_nano = 1795863600000000000
span.end_time_unix_nano = 1795863600999999999
message = AnyValue(kvlist_value=KeyValueList(values=[kv("role", string_value="user"), kv("tokens", int_value=2**63 - 1)]))
span.attributes.extend([
    kv("gen_ai.operation.name", string_value="chat"),
    kv("gen_ai.request.model", string_value="claude"),
    kv("weex.order_id", int_value=2**63 - 1),
    kv("weex.explanation", string_value="Claude read the book."),
    KeyValue(key="gen_ai.input.messages", value=AnyValue(array_value=ArrayValue(values=[message]))),
])
http = urllib.request.Request("${suite.harness.apiUrl}/otlp/v1/traces", data=gzip.compress(request.SerializeToString()), method="POST",
    headers={"Authorization": "Bearer ${KEY}", "Content-Type": "application/x-protobuf", "Content-Encoding": "gzip"})
with urllib.request.urlopen(http) as answer:
    response = ExportTraceServiceResponse.FromString(answer.read())
    print(answer.status, answer.headers["Content-Type"], response.HasField("partial_success"))
`,
      protoMissing,
    );
    expect(out.trim()).toBe('200 application/x-protobuf False');
    const [call] = await calls('span_id = $1', ['ffffffffffffffff']);
    expect(call).toMatchObject({ trace_id: 'f'.repeat(32), weex_order_id: '9223372036854775807', finished_at: new Date('2026-11-28T11:00:00.999Z') });
    expect(call.request_body).toBe('[{"role":"user","tokens":9223372036854775807}]');
    // The span names its order as an int64: the AI log it makes holds it digit for digit.
    const logs = await suite.db.query('SELECT order_id::text, model_call_ids::text[] AS calls FROM ai_logs WHERE $1 = ANY(model_call_ids)', [call.id]);
    expect(logs.rows).toEqual([{ order_id: '9223372036854775807', calls: [call.id] }]);
  });
});
