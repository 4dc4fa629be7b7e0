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
});
