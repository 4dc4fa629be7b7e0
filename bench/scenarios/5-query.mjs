import { DURATION_S, QUERY_CONCURRENCY, QUERY_SIM_LATENCY_MS, TARGETS } from '../settings.mjs';
import { ms } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator } from '../support/gateway.mjs';
import { alternatingLoops } from '../support/load.mjs';

const { httpSend, WeexClient } = await import('../../dist/libs/weex-client/src/index.js');
const { createMemoryWeightBudget } = await import('../../dist/libs/weight-budget/src/index.js');
const { SANDBOX_CREDENTIALS } = await import('../../dist/libs/config/src/index.js');

export const title = `GET /v1/orders/open through the gateway vs. the simulator called directly (simulator +${QUERY_SIM_LATENCY_MS} ms)`;

// Budgets far above what the run uses, on both sides: this scenario measures latency, not pacing.
const HUGE = 1_000_000_000;

/**
 * The same closed loop of QUERY_CONCURRENCY callers against both, alternating: the gateway (bench → API → WeexClient
 * → simulator) and the simulator directly with a signed request from WeexClient. The difference at p50 is what we add.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const sim = await startSimulator(cleanup);
    await sim.control('PUT', '/__sim/budgets', { ipLimit: HUGE, uidLimit: HUGE });
    const gateway = await gatewayEnvironment(cleanup, { ...sim.weexEnv, WEEX_IP_WEIGHT_LIMIT: String(HUGE), WEEX_UID_WEIGHT_LIMIT: String(HUGE) });
    const api = await startApi(cleanup, gateway.env);

    const probe = await httpSend(`${api.url}/v1/orders/open`, { method: 'GET', headers: AUTH, timeoutMs: 30_000 });
    if (probe.status !== 200) {
      return unavailable(`GET /v1/orders/open answered ${probe.status}: ${probe.text.slice(0, 200)}`);
    }
    const client = new WeexClient({
      baseUrl: sim.url,
      spotBaseUrl: sim.spotUrl,
      credentials: SANDBOX_CREDENTIALS,
      budget: (now) => createMemoryWeightBudget({ ip: { limit: HUGE, windowMs: 10_000 }, uid: { limit: HUGE, windowMs: 10_000 }, now }),
    });
    // First with no added latency, which also warms both sides up (a gateway runs for days: its code is compiled), to
    // tell what we add from what the simulator's pause does to it. Each pair alternates second by second.
    const sides = { gateway: () => gatewayCall(api.url), direct: () => client.openOrders() };
    const half = Math.max(1, DURATION_S / 2);
    const busy = await alternatingLoops({ calls: sides, concurrency: QUERY_CONCURRENCY, durationS: half });
    const [busyGateway, busyDirect] = [busy.gateway, busy.direct];
    await sim.control('PUT', '/__sim/faults', { latencyMs: QUERY_SIM_LATENCY_MS });
    const paused = await alternatingLoops({ calls: sides, concurrency: QUERY_CONCURRENCY, durationS: DURATION_S });
    const [viaGateway, direct] = [paused.gateway, paused.direct];
    const overhead = viaGateway.p50 - direct.p50;
    return {
      throughput: viaGateway.perSecond,
      unit: 'req/s',
      // With --repeat, the run of median overhead is the one reported.
      rank: overhead,
      rankUnit: 'ms added',
      p50: viaGateway.p50,
      p99: viaGateway.p99,
      targets: [{ text: `overhead ≤ ${TARGETS.queryOverheadP50Ms} ms at p50`, pass: overhead <= TARGETS.queryOverheadP50Ms }],
      summary: `overhead at p50: ${ms(overhead)} (at p99: ${ms(viaGateway.p99 - direct.p99)})`,
      details: [
        `${QUERY_CONCURRENCY} callers, each awaiting its answer before the next request, ${DURATION_S} s each in alternating 1 s slices, after the no-latency pair below and 1 s of warm-up`,
        `through the gateway: ${viaGateway.count} × 200, ${viaGateway.perSecond.toFixed(0)} req/s, p50 ${ms(viaGateway.p50)}, p99 ${ms(viaGateway.p99)}${errorsOf(viaGateway)}`,
        `direct (WeexClient → simulator): ${direct.count} answers, ${direct.perSecond.toFixed(0)} req/s, p50 ${ms(direct.p50)}, p99 ${ms(direct.p99)}${errorsOf(direct)}`,
        `we add ${ms(overhead)} at p50 and ${ms(viaGateway.p99 - direct.p99)} at p99: the extra HTTP hop, agent auth and rate limit, the shared Redis weight budget, and our answer`,
        `with no added latency (${half} s each): through the gateway p50 ${ms(busyGateway.p50)}, direct p50 ${ms(busyDirect.p50)}: ` +
          `we add ${ms(busyGateway.p50 - busyDirect.p50)} at p50`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** With the HTTP client WeexClient uses (node:http, kept-alive connections), so that client costs cancel out. */
async function gatewayCall(url) {
  const res = await httpSend(`${url}/v1/orders/open`, { method: 'GET', headers: AUTH, timeoutMs: 30_000 });
  if (res.status !== 200) throw new Error(`gateway answered ${res.status}: ${res.text.slice(0, 200)}`);
}

function unavailable(reason) {
  return { throughput: NaN, unit: 'req/s', p50: NaN, p99: NaN, targets: [{ text: 'endpoint exists', pass: false }], details: [reason] };
}

const errorsOf = (loop) => (loop.errors ? `, ${loop.errors} errors (first: ${loop.firstError})` : '');
