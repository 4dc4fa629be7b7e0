import { BATCH_CONNECTIONS, BATCH_SIZE, TARGETS } from '../settings.mjs';
import { allCommittedAndQueued, countLines, cpuLine, measureIngest } from '../support/ingest.mjs';
import { batchText } from '../support/payload.mjs';
import { mb } from '../support/format.mjs';

export const title = `POST /v1/ai-logs/batch, ${BATCH_SIZE} logs per request (API process, PostgreSQL + Redis)`;

export async function run() {
  const result = await measureIngest({
    path: '/v1/ai-logs/batch',
    body: batchText(BATCH_SIZE),
    connections: BATCH_CONNECTIONS,
    expectStatus: 207,
    logsPerRequest: BATCH_SIZE,
  });
  const { load } = result;
  const logsPerS = load.perSecond * BATCH_SIZE;
  return {
    throughput: logsPerS,
    unit: 'logs/s',
    p50: load.p50,
    p99: load.p99,
    rssMb: result.peakRssMb,
    targets: [
      { text: `≥ ${TARGETS.batchLogsPerS.toLocaleString('en')} logs/s`, pass: logsPerS >= TARGETS.batchLogsPerS },
      { text: 'every log committed and queued', pass: allCommittedAndQueued(result) },
    ],
    details: [
      `${load.perSecond.toFixed(1)} requests/s × ${BATCH_SIZE} logs; latencies are per request of ${BATCH_SIZE} logs`,
      ...countLines(result, 207),
      cpuLine(result),
      `API RSS: ${mb(result.restRssMb)} at rest, ${mb(result.peakRssMb)} peak under load`,
    ],
  };
}
