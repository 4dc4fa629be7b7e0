import { DURATION_S, INGEST_CONNECTIONS } from '../settings.mjs';
import { Cleanup } from '../support/gateway.mjs';
import { cannon, loadHeading, otherStatuses } from '../support/load.mjs';
import { ENTRY, freePort, NodeProcess, RssSampler } from '../support/processes.mjs';
import { logText } from '../support/payload.mjs';

export const title = 'Reference ceiling: bare NestJS + Fastify route, same body, 202';

/** What the HTTP stack alone can do on this machine in this run: the ceiling for scenario 2. */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const port = await freePort();
    const server = new NodeProcess('reference', ENTRY.reference, { PORT: String(port) });
    cleanup.defer(() => server.stop());
    const url = `http://127.0.0.1:${port}`;
    await server.waitForHttp(url);
    const rss = new RssSampler(server.pid);
    cleanup.defer(async () => rss.stop());
    const started = Date.now();
    const load = await cannon({ url: `${url}/v1/ai-logs`, body: logText(), connections: INGEST_CONNECTIONS, durationS: DURATION_S, expectStatus: 202 });
    return {
      throughput: load.perSecond,
      unit: 'req/s',
      p50: load.p50,
      p99: load.p99,
      rssMb: rss.maxBetween(started),
      targets: [],
      details: [`${loadHeading(load, 202)}: ${load.ok} × 202 ${otherStatuses(load, 202)}`],
    };
  } finally {
    await cleanup.run();
  }
}
