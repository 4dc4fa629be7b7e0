import { randomUUID } from 'node:crypto';
import { ms } from '../support/format.mjs';
import { Cleanup } from '../support/gateway.mjs';
import { createTempDatabase, withClient } from '../support/services.mjs';

const { applyMigrations, PrismaService } = await import('../../dist/libs/database/src/index.js');
const { AiLogRepository, AuditRows } = await import('../../dist/libs/ai-log/src/index.js');
const { canonicalLog, chainHash, GENESIS_HASH } = await import('../../dist/libs/audit-chain/src/index.js');
// The server-side check exists from the receipt chain on; run against an older build, the scenario times recording alone.
const audit = await import('../../dist/libs/audit/src/index.js').catch(() => ({}));

const LOGS = Number(process.env.BENCH_RECEIPT_LOGS ?? 4_000);
/** As the worker records them: UPLOAD_CONCURRENCY (default 8) jobs of one account at once. */
const CONCURRENCY = 8;

export const title = `Recording upload attempts: ${CONCURRENCY} workers of one account at once (finishAttempt), and the server-side check over them`;

/**
 * Calls the repository's finishAttempt as the uploader does, for LOGS chained logs of one account, from CONCURRENCY
 * loops at once on the worker's Prisma pool: the latency of recording an attempt, the process's CPU per attempt, and,
 * where the build has it, one run of the server-side check over the result (which must find both chains intact).
 * Run the same file on two builds, alternating, to compare them.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const database = await createTempDatabase();
    cleanup.defer(() => database.drop());
    await withClient(database.url, (client) => applyMigrations(client));
    const ids = await seed(database);
    const prisma = new PrismaService(database.url);
    cleanup.defer(() => prisma.$disconnect());
    const repository = new AiLogRepository(prisma);
    const record = (id) => {
      const startedAt = new Date();
      return repository.finishAttempt(
        id,
        1, // the attempt the claim took; an uploaded attempt is recorded whatever it was
        {
          target: 'simulator',
          url: 'http://127.0.0.1/capi/v3/order/uploadAiLog',
          startedAt,
          finishedAt: new Date(),
          outcome: 'uploaded',
          httpStatus: 200,
          exchangeCode: '00000',
          exchangeMessage: 'success',
        },
        'uploaded',
        null,
      );
    };
    // Warm-up: the first tenth, not in the figures.
    const warm = Math.floor(ids.length / 10);
    await loops(ids.slice(0, warm), record);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const latencies = await loops(ids.slice(warm), record);
    const elapsedS = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    const recorded = latencies.length;
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(recorded * 0.5)];
    const p99 = latencies[Math.floor(recorded * 0.99)];
    const cpuPerAttemptUs = (user + system) / recorded;
    const details = [
      `${LOGS} chained logs of one account; ${warm} attempts of warm-up, then ${recorded} attempts recorded by ${CONCURRENCY} loops at once: ${(recorded / elapsedS).toFixed(0)}/s`,
      `latency of one finishAttempt: p50 ${ms(p50)}, p99 ${ms(p99)}; this process's CPU: ${cpuPerAttemptUs.toFixed(0)} µs per attempt (Prisma and pg included)`,
    ];
    if (audit.AuditChainCheck) {
      // The chains' reads were AuditRows of libs/audit before they moved to libs/ai-log.
      const rows = new (AuditRows ?? audit.AuditRows)(prisma);
      const check = new audit.AuditChainCheck(
        rows,
        new audit.AuditCheckRepository(prisma),
        new audit.AuditCheckpointRepository(prisma),
        new audit.AuditTreeRepository(prisma),
      );
      const checkCpu = process.cpuUsage();
      const checkStarted = performance.now();
      const view = await check.run('default');
      const checkMs = performance.now() - checkStarted;
      const checkCpuMs = Object.values(process.cpuUsage(checkCpu)).reduce((a, b) => a + b, 0) / 1000;
      if (!view.ok || view.receipts.verifiedSeq !== String(LOGS)) throw new Error(`the check did not find the chains intact: ${JSON.stringify(view)}`);
      details.push(
        `one run of the server-side check from scratch: ${LOGS} logs and ${LOGS} receipts verified, and the same again in its sweep, in ${ms(checkMs)} (${checkCpuMs.toFixed(0)} ms of this process's CPU, ${((1000 * checkCpuMs) / (4 * LOGS)).toFixed(0)} µs per link): both chains intact`,
      );
    }
    return {
      throughput: recorded / elapsedS,
      unit: 'attempts/s',
      p50,
      p99,
      summary: `p50 ${ms(p50)}, p99 ${ms(p99)}, ${cpuPerAttemptUs.toFixed(0)} µs CPU per attempt`,
      targets: [],
      details,
    };
  } finally {
    await cleanup.run();
  }
}

/** One account's chain of LOGS logs, inserted as ingest would have chained them; answers their ids. */
async function seed(database) {
  await database.query(`INSERT INTO accounts (id, name) VALUES ('default', 'bench') ON CONFLICT DO NOTHING`);
  await database.query(`INSERT INTO agent_keys (id, account_id, key_hash, label) VALUES ('bench', 'default', 'bench', 'bench')`);
  const rows = [];
  let prevHash = GENESIS_HASH;
  const receivedAt = new Date();
  for (let seq = 1; seq <= LOGS; seq++) {
    const log = {
      accountId: 'default',
      seq: String(seq),
      id: randomUUID(),
      receivedAt: receivedAt.toISOString(),
      agentKeyId: 'bench',
      orderId: null,
      stage: 'decision',
      model: 'm',
      input: { seq },
      output: { ok: true },
      explanation: 'bench',
    };
    const hash = chainHash(prevHash, canonicalLog(log));
    rows.push({ ...log, input: JSON.stringify(log.input), output: JSON.stringify(log.output), prevHash, hash });
    prevHash = hash;
  }
  await database.query(
    `INSERT INTO ai_logs (id, account_id, agent_key_id, stage, model, input, output, explanation, status, received_at, seq, prev_hash, hash)
     SELECT id, 'default', 'bench', 'decision', 'm', input, output, 'bench', 'uploading', $2, seq, prev_hash, hash
     FROM json_to_recordset($1::json) AS r(id uuid, input text, output text, seq bigint, prev_hash text, hash text)`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, input: r.input, output: r.output, seq: Number(r.seq), prev_hash: r.prevHash, hash: r.hash }))), receivedAt],
  );
  await database.query('INSERT INTO audit_heads (account_id, seq, hash) VALUES ($1, $2, $3)', ['default', LOGS, prevHash]);
  return rows.map((r) => r.id);
}

/** Runs `call` for every id from CONCURRENCY loops at once; answers each call's latency in ms. */
async function loops(ids, call) {
  const latencies = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < ids.length; i = next++) {
        const started = performance.now();
        await call(ids[i]);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}
