import { Agent, request } from 'node:http';
import { DURATION_S, QUERY_CONCURRENCY, TARGETS } from '../settings.mjs';
import { ms } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi } from '../support/gateway.mjs';
import { alternatingLoops } from '../support/load.mjs';

const { startStandInModel } = await import('../../dist/libs/llm-stand-in/src/index.js');

export const title = 'A model call through /llm/openai/v1 vs. the stand-in model called directly (whole answer, and a stream’s first token)';

const CHAT = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'BTCUSDT 1h candles: 64250.5, 64310, 64188.25. Long or short?' }] });
const STREAM = JSON.stringify({ ...JSON.parse(CHAT), stream: true });
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * The same closed loop of QUERY_CONCURRENCY callers against both, alternating second by second: the gateway (bench →
 * API → stand-in, the call recorded in model_calls before its answer ends) and the stand-in directly. The difference at
 * p50 is what capture adds: to a whole answer (its record committed before it is sent), and to the first token of a
 * stream (passed on as it comes; the record waits at the end).
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const model = await startStandInModel();
    cleanup.defer(() => model.close());
    const gateway = await gatewayEnvironment(cleanup, { LLM_UPSTREAM_URL: model.url });
    const api = await startApi(cleanup, gateway.env);
    const viaGateway = `${api.url}/llm/openai/v1/chat/completions`;
    const direct = `${model.url}/chat/completions`;
    const probe = await post(viaGateway, CHAT, AUTH);
    if (probe.status !== 200) return unavailable(`POST ${viaGateway} answered ${probe.status}`);

    const concurrency = Number(process.env.BENCH_LLM_CONCURRENCY ?? QUERY_CONCURRENCY);
    const whole = await alternatingLoops({
      calls: { gateway: () => wholeAnswer(viaGateway, AUTH), direct: () => wholeAnswer(direct, {}) },
      concurrency,
      durationS: DURATION_S,
    });
    model.requests.length = 0; // the stand-in keeps every request; the bench needs none of them
    const first = await alternatingLoops({
      calls: { gateway: () => firstToken(viaGateway, AUTH), direct: () => firstToken(direct, {}) },
      concurrency,
      durationS: DURATION_S,
    });
    model.requests.length = 0;
    const added = whole.gateway.p50 - whole.direct.p50;
    const addedFirst = first.gateway.p50 - first.direct.p50;
    return {
      throughput: whole.gateway.perSecond,
      unit: 'calls/s',
      rank: added,
      rankUnit: 'ms added',
      p50: whole.gateway.p50,
      p99: whole.gateway.p99,
      targets: [
        { text: `whole answer: ≤ ${TARGETS.llmOverheadP50Ms} ms added at p50`, pass: added <= TARGETS.llmOverheadP50Ms },
        { text: `first streamed token: ≤ ${TARGETS.llmFirstTokenOverheadP50Ms} ms added at p50`, pass: addedFirst <= TARGETS.llmFirstTokenOverheadP50Ms },
      ],
      summary: `added at p50: ${ms(added)} to a whole answer, ${ms(addedFirst)} to a stream's first token`,
      details: [
        `${concurrency} caller${concurrency === 1 ? '' : 's'}, each awaiting its answer before the next, ${DURATION_S} s per side in alternating 1 s slices after 1 s of warm-up, node:http with kept-alive connections on both sides`,
        `whole answer through the gateway: ${whole.gateway.count} calls, ${whole.gateway.perSecond.toFixed(0)}/s, p50 ${ms(whole.gateway.p50)}, p99 ${ms(whole.gateway.p99)}${errorsOf(whole.gateway)}`,
        `whole answer direct: ${whole.direct.count} calls, ${whole.direct.perSecond.toFixed(0)}/s, p50 ${ms(whole.direct.p50)}, p99 ${ms(whole.direct.p99)}${errorsOf(whole.direct)}`,
        `first token through the gateway: p50 ${ms(first.gateway.p50)}, p99 ${ms(first.gateway.p99)} (${first.gateway.count} streams${errorsOf(first.gateway)}); direct: p50 ${ms(first.direct.p50)}, p99 ${ms(first.direct.p99)}${errorsOf(first.direct)}`,
        'what is added: the extra HTTP hop, agent auth and rate limit, the call to the provider, and for a whole answer the commit of its record (one round trip: the INSERT after the last link the API committed, if that is still the head) before it is sent',
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** One chat completion, read whole. */
async function wholeAnswer(url, headers) {
  const answer = await post(url, CHAT, headers);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
}

/** A streamed chat completion: the time to its first content delta, in ms; the rest is read before it returns. */
function firstToken(url, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let at;
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      if (res.statusCode !== 200) return (reject(new Error(`${url} answered ${res.statusCode}`)), res.resume());
      res.on('data', (chunk) => {
        if (at === undefined && chunk.includes('"content":"')) at = performance.now() - started;
      });
      res.on('end', () => (at === undefined ? reject(new Error('the stream ended without content')) : resolve(at)));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(STREAM);
  });
}

function post(url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function unavailable(reason) {
  return { throughput: NaN, unit: 'calls/s', p50: NaN, p99: NaN, targets: [{ text: 'endpoint exists', pass: false }], details: [reason] };
}

const errorsOf = (loop) => (loop.errors ? `, ${loop.errors} errors (first: ${loop.firstError})` : '');
