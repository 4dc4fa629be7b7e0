import { randomUUID } from 'node:crypto';
import { TARGETS } from '../settings.mjs';
import { mb } from '../support/format.mjs';
import { AGENT_KEY, AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator, startWorker } from '../support/gateway.mjs';
import { logText } from '../support/payload.mjs';
import { RssSampler, sleep } from '../support/processes.mjs';

export const title = 'API RSS under minutes of mixed abuse (hostile, careless and well-behaved agents at once)';

/** Seconds of abuse (BENCH_ABUSE_S, default 300: issue 15 measured 212 MB after five minutes). */
const ABUSE_S = Number(process.env.BENCH_ABUSE_S) > 0 ? Number(process.env.BENCH_ABUSE_S) : 300;
/** Callers at once: each loops over the kinds of request below (BENCH_ABUSE_KINDS=4,5: those of KINDS only), one request at a time. */
const CALLERS = 24;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

const nested = (depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const bigText = (bytes) => `{"stage":"s","model":"m","input":{"blob":"${'x'.repeat(bytes)}"},"output":{},"explanation":"big"}`;

/**
 * What the callers send, in turn: every request an outsider broke us with, or could (issue 15), next to ordinary logs,
 * so that the API holds a mix of rejected and committed work. Each entry answers the fetch arguments.
 */
const KINDS = [
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: logText() }],
  () => [
    '/v1/ai-logs',
    { method: 'POST', headers: json(AUTH), body: '{"stage":"s","model":"m","input":{"k":"\\ud800"},"output":{},"explanation":"lone surrogate"}' },
  ],
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: '{"stage":"s","model":"m","input":{},"output":{"\\u0000":1},"explanation":"nul key"}' }],
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: `{"stage":"s","model":"m","input":${nested(5_000)},"output":{},"explanation":"deep"}` }],
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: bigText(1_000_000) }],
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: bigText(1_200_000) }], // over the body limit: 413
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: '{"stage":"s","model":' }],
  () => ['/v1/ai-logs', { method: 'POST', headers: json(AUTH), body: '{"constructor":null,"__proto__":{"x":1},"toString":1}' }],
  () => [
    '/v1/ai-logs',
    { method: 'POST', headers: json(AUTH), body: `{"orderId":1e400,"stage":"s","model":"m","input":{"n":-0,"m":1e999},"output":{},"explanation":"numbers"}` },
  ],
  () => ['/v1/ai-logs/batch', { method: 'POST', headers: json(AUTH), body: batch(500) }],
  () => ['/v1/ai-logs', { method: 'POST', headers: json({ authorization: `Bearer agk_unknown_${randomUUID()}` }), body: logText() }],
  () => ['/v1/ai-logs', { method: 'POST', headers: json({ ...AUTH, 'idempotency-key': 'bench-abuse-reused' }), body: logText(String(Date.now())) }],
  () => [`/v1/ai-logs/${randomUUID()}`, { headers: AUTH }],
  () => ['/v1/compliance/coverage?limit=500', { headers: AUTH }],
  () => ['/admin/queue', { headers: { authorization: `Bearer wrong-${randomUUID()}` } }],
  () => ['/admin/sign-in?next=/admin/queues</script><script>alert(1)</script>&next=/x', {}],
  () => ['/admin/queues', { headers: { cookie: 'gw_admin_session=%E0%A4%A' } }],
  () => ['/v1/trades?symbol=cmt_btcusdt&symbol=x&startTime=abc', { headers: AUTH }],
];

function json(headers) {
  return { ...headers, 'content-type': 'application/json' };
}

/** A batch of `n` logs, every tenth one refused (a lone surrogate in its explanation). */
function batch(n) {
  const items = Array.from({ length: n }, (_, i) => (i % 10 === 0 ? '{"stage":"s","model":"m","input":{},"output":{},"explanation":"\\udc00"}' : logText()));
  return `{"logs":[${items.join(',')}]}`;
}

/**
 * API and worker as in production, and CALLERS agents that each send the kinds of request above in turn for
 * BENCH_ABUSE_S seconds; the API's RSS is sampled all along. Target: the documented bound of scenario 7.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const sim = await startSimulator(cleanup);
    const gateway = await gatewayEnvironment(cleanup, {
      ...sim.weexEnv,
      ADMIN_TOKEN,
      AGENT_API_KEY: AGENT_KEY,
      ...(process.env.XMALLOC ? { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' } : {}),
    });
    const api = await startApi(cleanup, gateway.env);
    startWorker(cleanup, gateway.env);
    const rss = new RssSampler(api.pid);
    cleanup.defer(async () => rss.stop());
    await sleep(3_000);
    const rest = rss.at();
    const statuses = new Map();
    let errors = 0;
    const until = Date.now() + ABUSE_S * 1000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CALLERS }, async (_, caller) => {
        for (let i = caller; Date.now() < until; i++) {
          const kinds = process.env.BENCH_ABUSE_KINDS ? process.env.BENCH_ABUSE_KINDS.split(',').map((k) => KINDS[Number(k)]) : KINDS;
          const [path, init] = kinds[i % kinds.length]();
          try {
            const res = await fetch(`${api.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          } catch {
            errors++;
          }
        }
      }),
    );
    const peak = rss.maxBetween(started);
    await sleep(5_000);
    const after = rss.at();
    const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    return {
      throughput: answered / ABUSE_S,
      unit: 'requests/s',
      rssMb: peak,
      summary: `API ${mb(rest)} → ${mb(peak)} peak over ${ABUSE_S} s, ${mb(after)} 5 s after; ${fiveHundreds} × 5xx`,
      targets: [
        { text: `API ≤ ${TARGETS.apiRssMb} MB`, pass: peak <= TARGETS.apiRssMb },
        { text: 'no 5xx', pass: fiveHundreds === 0 },
      ],
      details: [
        `API RSS: ${mb(rest)} at rest, ${mb(peak)} peak during ${ABUSE_S} s of abuse, ${mb(after)} 5 s after (kernel high-water mark ${mb(rss.highWaterMb())})`,
        `answers by status: ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${n} × ${s}`)
          .join(', ')}; ${errors} failed at the connection (a 413 closes it while the body is still being sent) or had no answer within 30 s`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}
