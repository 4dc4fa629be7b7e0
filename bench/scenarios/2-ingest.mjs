import { INGEST_CONNECTIONS, TARGETS } from '../settings.mjs';
import { allCommittedAndQueued, countLines, cpuLine, measureIngest } from '../support/ingest.mjs';
import { mb } from '../support/format.mjs';
import { logText } from '../support/payload.mjs';

export const title = 'POST /v1/ai-logs, one ~1.2 KB log per request (API process, PostgreSQL + Redis)';

export async function run() {
  const result = await measureIngest({ path: '/v1/ai-logs', body: logText(), connections: INGEST_CONNECTIONS, expectStatus: 202 });
  const { load } = result;
  return {
    throughput: load.perSecond,
    unit: 'logs/s',
    p50: load.p50,
    p99: load.p99,
    rssMb: result.peakRssMb,
    targets: [
      { text: `≥ ${TARGETS.ingestLogsPerS.toLocaleString('en')} logs/s`, pass: load.perSecond >= TARGETS.ingestLogsPerS },
      { text: `p99 ≤ ${TARGETS.ingestP99Ms} ms`, pass: load.p99 <= TARGETS.ingestP99Ms },
      { text: 'every 202 committed and queued', pass: allCommittedAndQueued(result) },
      { text: `API RSS ≤ ${TARGETS.apiRssMb} MB`, pass: result.peakRssMb <= TARGETS.apiRssMb },
    ],
    details: [
      ...countLines(result, 202),
      cpuLine(result),
      `API RSS: ${mb(result.restRssMb)} at rest, ${mb(result.peakRssMb)} peak under load (kernel high-water mark ${mb(result.highWaterMb)})`,
    ],
  };
}
