import { createServer, request } from 'node:http';
import { mb } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi } from '../support/gateway.mjs';
import { RssSampler, sleep } from '../support/processes.mjs';

/** Answer size and how many at once (BENCH_LLM_ANSWER_MB, BENCH_LLM_AT_ONCE): defaults 3 MB and 5. */
const ANSWER_MB = Number(process.env.BENCH_LLM_ANSWER_MB ?? 3);
const AT_ONCE = Number(process.env.BENCH_LLM_AT_ONCE ?? 5);
const ROUNDS = 10;
/** What the README's LLM_ANSWER_LIMIT_BYTES row promises: at most 12 times each answer's size, over the API at rest. */
const TARGET_MB = 12 * ANSWER_MB * AT_ONCE;

export const title = `API RSS while ${AT_ONCE} answers of ${ANSWER_MB} MB are proxied and recorded at once`;

/**
 * A provider that answers every chat completion with a ${ANSWER_MB} MB JSON body; the API proxies AT_ONCE of them at a
 * time, ROUNDS times, each recorded in model_calls before it is sent. The figure is the API's peak RSS over its RSS at
 * rest after a warm-up call: what recording large answers costs, which LLM_ANSWER_LIMIT_BYTES is sized by.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const content = 'x'.repeat(ANSWER_MB * 1_000_000);
    const answer = Buffer.from(
      JSON.stringify({ id: 'chatcmpl-big', object: 'chat.completion', model: 'big-1', choices: [{ index: 0, message: { role: 'assistant', content } }] }),
    );
    const provider = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    });
    await new Promise((resolve) => provider.listen(0, '127.0.0.1', resolve));
    cleanup.defer(() => new Promise((resolve) => provider.close(resolve)));
    const gateway = await gatewayEnvironment(cleanup, { LLM_UPSTREAM_URL: `http://127.0.0.1:${provider.address().port}` });
    const api = await startApi(cleanup, gateway.env);
    const url = `${api.url}/llm/openai/v1/chat/completions`;
    const sampler = new RssSampler(api.pid, 10);
    cleanup.defer(async () => sampler.stop());
    await call(url, answer.length);
    await sleep(2_000);
    const restMb = sampler.at();
    const from = Date.now();
    for (let round = 0; round < ROUNDS; round++) await Promise.all(Array.from({ length: AT_ONCE }, () => call(url, answer.length)));
    const peakMb = sampler.maxBetween(from);
    const overMb = peakMb - restMb;
    return {
      throughput: NaN,
      unit: '',
      rank: overMb,
      rankUnit: 'MB over rest',
      targets: [{ text: `peak ≤ ${TARGET_MB} MB over rest (12 × ${ANSWER_MB} MB × ${AT_ONCE})`, pass: overMb <= TARGET_MB }],
      summary: `API RSS ${mb(restMb)} at rest, ${mb(peakMb)} at peak: ${mb(overMb)} over rest`,
      details: [
        `${ROUNDS} rounds of ${AT_ONCE} calls at once, each answered with ${(answer.length / 1e6).toFixed(1)} MB of JSON and recorded before it is sent`,
        `RSS sampled every 10 ms from /proc; rest: after one warm-up call and 2 s; kernel high-water mark ${mb(sampler.highWaterMb())}`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** One chat completion through the gateway, read whole; fails unless it is the provider's answer in full. */
function call(url, expectedBytes) {
  const body = JSON.stringify({ model: 'big-1', messages: [{ role: 'user', content: 'a long answer, please' }] });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 200 && bytes === expectedBytes ? resolve() : reject(new Error(`${url}: ${res.statusCode}, ${bytes} bytes`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
