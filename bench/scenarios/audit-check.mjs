import { mb, ms } from '../support/format.mjs';
import { mixedBody, seedChains } from '../support/audit-chains.mjs';
import { Cleanup, gatewayEnvironment, startSimulator, startWorker } from '../support/gateway.mjs';
import { poll, RssSampler } from '../support/processes.mjs';
import { withClient } from '../support/services.mjs';
import { TARGETS } from '../settings.mjs';

const { applyMigrations, PrismaService } = await import('../../dist/libs/database/src/index.js');
const { AuditRows } = await import('../../dist/libs/ai-log/src/index.js');
const { AuditChainCheck, AuditCheckpointRepository, AuditCheckRepository, AuditTreeRepository } = await import('../../dist/libs/audit/src/index.js');

/** Logs of the seeded chain (BENCH_AUDIT_LOGS, default 200,000); every tenth has two receipts. */
const LOGS = Number(process.env.BENCH_AUDIT_LOGS ?? 200_000);
/**
 * Every 10th of the first 10,000 logs carries about BENCH_AUDIT_BIG_KB (default 256) KB of input, the others about
 * BENCH_AUDIT_LOG_KB (default 1; 0 for logs of a few bytes, where the check's reads are all there is to time).
 */
const BIG_KB = Number(process.env.BENCH_AUDIT_BIG_KB ?? 256);
const LOG_KB = Number(process.env.BENCH_AUDIT_LOG_KB ?? 1);

/** How long each phase may take to verify both chains to their heads (BENCH_AUDIT_TIMEOUT_S, default 600). */
const TIMEOUT_S = Number(process.env.BENCH_AUDIT_TIMEOUT_S ?? 600);

export const title = `The audit check over a long chain (${LOGS.toLocaleString('en')} logs of ${LOG_KB} KB with their receipts, some of ${BIG_KB} KB; tables never analysed)`;

/**
 * Seeds one account's two chains with SQL (valid links; nothing analysed, as on a database with autovacuum off). Then
 * (1) a worker with AUDIT_CHECK_INTERVAL_MS=1000 (full runs: no limit of links per minute) verifies both chains to
 * their heads with its periodic check, its RSS sampled meanwhile; (2) the same check from scratch in this process, run
 * after run, each run timed and its links counted (frontier and sweep), for the time per 1,000 links.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const sim = await startSimulator(cleanup);
    const gateway = await gatewayEnvironment(cleanup, { ...sim.weexEnv, AUDIT_CHECK_INTERVAL_MS: '1000', AUDIT_CHECK_LINKS_PER_MIN: '1000000000' });
    const url = gateway.env.DATABASE_URL;
    const seedStarted = Date.now();
    const heads = await withClient(url, async (client) => {
      await applyMigrations(client);
      return seedChains(client, { logs: LOGS, body: mixedBody({ smallKb: LOG_KB, bigKb: BIG_KB }) });
    });
    const seedMs = Date.now() - seedStarted;
    const atHeads = (row) => row?.log_seq === heads.logs.seq && row?.receipt_seq === heads.receipts.seq;

    const worker = startWorker(cleanup, gateway.env);
    const rss = new RssSampler(worker.pid);
    cleanup.defer(async () => rss.stop());
    const started = Date.now();
    let state;
    const workerDone = await poll('the worker to verify both chains', TIMEOUT_S * 1000, async () => {
      state = await checkState(url);
      return atHeads(state) ? true : undefined;
    }).catch(() => false);
    const workerMs = Date.now() - started;
    const peak = rss.maxBetween(started);
    const after = rss.at();
    const highWater = rss.highWaterMb();
    await worker.stop();
    rss.stop();
    if (state?.broken_reason) throw new Error(`the check found the seeded chains broken: ${state.broken_reason}`);

    // (2) In this process, from scratch: each run's links are its frontier's and its sweep's progress.
    await withClient(url, (client) => client.query('DELETE FROM audit_checks'));
    const prisma = new PrismaService(url);
    cleanup.defer(() => prisma.$disconnect());
    const check = new AuditChainCheck(
      new AuditRows(prisma),
      new AuditCheckRepository(prisma),
      new AuditCheckpointRepository(prisma),
      new AuditTreeRepository(prisma),
    );
    const runs = [];
    const deadline = Date.now() + TIMEOUT_S * 1000;
    for (let before = await checkState(url); !atHeads(before) && Date.now() < deadline;) {
      const runStarted = performance.now();
      const view = await check.run('default');
      const runMs = performance.now() - runStarted;
      if (!view.ok) throw new Error(`the check found the seeded chains broken: ${JSON.stringify(view.broken)}`);
      const after = await checkState(url);
      runs.push({ ms: runMs, links: walked(before, after) });
      before = after;
    }
    const links = runs.reduce((sum, r) => sum + r.links, 0);
    const busyMs = runs.reduce((sum, r) => sum + r.ms, 0);
    const perThousand = busyMs / (links / 1000);
    return {
      throughput: links / (busyMs / 1000),
      unit: 'links/s',
      rssMb: peak,
      summary: `${perThousand.toFixed(1)} ms per 1,000 links; worker ${mb(peak)} peak`,
      targets: [
        { text: `the worker verified both chains within ${TIMEOUT_S} s`, pass: workerDone },
        { text: `worker ≤ ${TARGETS.workerRssMb} MB`, pass: peak <= TARGETS.workerRssMb },
      ],
      details: [
        `seeded ${heads.logs.seq} logs and ${heads.receipts.seq} receipts of one account in ${ms(seedMs)}`,
        `worker: ${workerDone ? 'verified both chains to their heads' : `got to log ${state?.log_seq ?? 0}, receipt ${state?.receipt_seq ?? 0} before the timeout`} ` +
          `in ${ms(workerMs)}; RSS ${mb(peak)} peak meanwhile (kernel high-water mark ${mb(highWater)}), ${mb(after)} when it was done`,
        `one process's runs of the check from scratch: ${runs.length} runs (${runs.map((r) => `${r.links.toLocaleString('en')} links in ${ms(r.ms)}`).join(', ')}), ` +
          `${perThousand.toFixed(1)} ms per 1,000 links (frontier and sweep)`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

async function checkState(url) {
  return withClient(url, async (client) => {
    const { rows } = await client.query(
      `SELECT log_seq::text, receipt_seq::text, sweep_log_seq::text, sweep_receipt_seq::text, log_swept_at, receipt_swept_at, broken_reason,
              sweep_log_end_seq::text, sweep_receipt_end_seq::text
       FROM audit_checks WHERE account_id = 'default'`,
    );
    return rows[0];
  });
}

/**
 * Links one run verified: each frontier's progress, and each sweep's (when it went round, to the end of its pass: the
 * stored end, or the frontier it started from when the pass began at this run).
 */
function walked(before, after) {
  const n = (value) => Number(value ?? 0);
  const sweep = (pos, end, frontier, sweptBefore, sweptAfter, posAfter) =>
    sweptAfter && String(sweptAfter) !== String(sweptBefore) ? (n(end) > 0 ? n(end) : n(frontier)) - n(pos) : n(posAfter) - n(pos);
  return (
    n(after.log_seq) -
    n(before?.log_seq) +
    n(after.receipt_seq) -
    n(before?.receipt_seq) +
    sweep(before?.sweep_log_seq, before?.sweep_log_end_seq, before?.log_seq, before?.log_swept_at, after.log_swept_at, after.sweep_log_seq) +
    sweep(
      before?.sweep_receipt_seq,
      before?.sweep_receipt_end_seq,
      before?.receipt_seq,
      before?.receipt_swept_at,
      after.receipt_swept_at,
      after.sweep_receipt_seq,
    )
  );
}
