import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PG_URL } from './support/services.js';

// The benchmarks call some of the libraries directly (dist), so a refactor can break one long after it was last run:
// the receipts scenario failed on a class that had moved (AuditRows) until a full `npm run bench` found it. This runs
// those scenarios small, so that a broken one fails here instead.
describe('benchmark scenarios that call the libraries directly still run', () => {
  it('receipts: records attempts of chained logs, and the server-side check finds both chains intact', async () => {
    process.env.BENCH_RECEIPT_LOGS = '40';
    process.env.BENCH_DATABASE_URL ??= PG_URL;
    const receipts = await import('../bench/scenarios/receipts.mjs');
    const result = await receipts.run();
    expect(result.error).toBeUndefined();
    expect(result.details.join('\n')).toMatch(/40 logs and 40 receipts verified.*both chains intact/);
  });

  it('audit-check: seeds both chains with SQL, and the worker and the check in this process verify them', async () => {
    process.env.BENCH_AUDIT_LOGS = '40';
    process.env.BENCH_DATABASE_URL ??= PG_URL;
    const scenario = await import('../bench/scenarios/audit-check.mjs');
    const result = await scenario.run();
    expect(result.error).toBeUndefined();
    expect(result.details.join('\n')).toMatch(/seeded 40 logs and 44 receipts[\s\S]*worker: verified both chains to their heads/);
  }, 120_000);

  it('proofs: builds the tree with the check, gets a checkpoint cosigned by 3 witness processes, and serves proofs', async () => {
    Object.assign(process.env, { BENCH_PROOF_LOGS: '300', BENCH_PROOF_REQUESTS: '20' });
    process.env.BENCH_DATABASE_URL ??= PG_URL;
    const scenario = await import('../bench/scenarios/proofs.mjs');
    const result = await scenario.run();
    expect(result.error).toBeUndefined();
    expect(result.details.join('\n')).toMatch(/3 cosignatures over consistency proofs/);
  }, 120_000);
});

// The growth scenario drives the whole gateway (admin pause and resume, ingest, drain, reads, coverage, report,
// export, verify) on a PostgreSQL server of its own: run tiny, it fails here when any of them changes under it.
describe('the growth scenario still runs', () => {
  it('grows an account in 4 steps, drains every step, and every read answers what the account holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'growth-spec-'));
    const json = join(dir, 'growth.json');
    Object.assign(process.env, {
      BENCH_GROWTH_LOGS: '1000',
      BENCH_GROWTH_ORDERS: '10',
      BENCH_GROWTH_SLICE_S: '1',
      BENCH_GROWTH_READS: '10',
      // Short enough that a drain or a query that stalls fails the test within its timeout, processes cleaned up.
      BENCH_GROWTH_DRAIN_S: '60',
      BENCH_GROWTH_CALL_LIMIT_S: '30',
      BENCH_GROWTH_JSON: json,
    });
    try {
      const growth = await import('../bench/scenarios/9-growth.mjs');
      const result = await growth.run();
      expect(result.error).toBeUndefined();
      const { steps } = JSON.parse(readFileSync(json, 'utf8')) as { steps: GrowthStep[] };
      expect(steps.map((s) => s.logs)).toEqual([100, 250, 500, 1000]);
      for (const step of steps) {
        expect(step.drain.left).toBe(0);
        expect(step.statuses).toEqual({ uploaded: step.logs });
        expect(step.coverage.orders.covered).toBeGreaterThanOrEqual(10);
        expect(step.coverage.orders.covered + step.coverage.orders.missing).toBe(step.coverage.orders.total);
        // A line per log and per receipt, then the orders, fills and the end line.
        expect(step.export.lines).toBeGreaterThan(2 * step.logs);
        expect(step.verify).toMatchObject({ ok: true, logs: String(step.logs) });
        expect(step.reads.logById.n).toBe(10);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

interface GrowthStep {
  logs: number;
  drain: { left: number };
  statuses: Record<string, number>;
  coverage: { orders: { total: number; covered: number; missing: number } };
  export: { lines: number };
  verify: { ok: boolean; logs: string };
  reads: { logById: { n: number } };
}
