import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SANDBOX_CREDENTIALS } from '#libs/config';
import { failures } from '../bench/support/fault-check.mjs';
import { FaultRun } from '../bench/support/fault-run-core.mjs';
import { SimSignedClient, UPLOAD_V3 } from './support/sim-signed-client.js';

const ROOT = new URL('..', import.meta.url).pathname;

// `npm run fault-run` itself is long and stays out of `npm test`; this runs its core for a few seconds without
// faults, then breaks the data behind its back, so that a checker that cannot see a duplicate or a loss cannot pass.
describe('the fault run (bench/fault-run.mjs) counts what it must', () => {
  let run: FaultRun | undefined;
  afterAll(() => run?.stop(), 60_000);

  it('passes a clean run, then finds a duplicate row, a lost log, a second id and an exchange duplicate made by hand', async () => {
    run = await FaultRun.start({ durationS: 3, faults: 'none', apis: 1, workers: 1, agentsPerAccount: 1, ratePerS: 12, replayShare: 0.5 });
    await run.load();
    await run.drain();
    const clean = await run.check();
    expect(failures(clean)).toEqual([]);
    expect(clean.acked).toBeGreaterThan(5);
    expect(clean).toMatchObject({ stored: clean.acked, uploaded: clean.acked, exchange: { uploads: clean.acked, duplicates: 0 } });
    expect(clean.replays.sameIds).toBe(clean.replays.sent);

    const acked = [...run.ledger.acks].map(([marker, ids]) => ({ marker, id: [...ids][0] }));
    const [copied, deleted, twice] = acked;
    const resent = acked.slice(3).find((a) => run!.ledger.sent.get(a.marker) === 'default')!;
    // A second row of one decision, the same in every column but its id and its place and hash in the chain.
    await run.database.query(
      `INSERT INTO ai_logs SELECT (jsonb_populate_record(NULL::ai_logs, to_jsonb(l) || jsonb_build_object('id', $2::uuid,
         'seq', (SELECT max(seq) + 1 FROM ai_logs WHERE account_id = l.account_id), 'hash', $3::text))).*
       FROM ai_logs l WHERE id = $1`,
      [copied.id, randomUUID(), randomBytes(32).toString('hex')],
    );
    await run.database.query('DELETE FROM ai_logs WHERE id = $1', [deleted.id]);
    run.ledger.ack(twice.marker, randomUUID());
    // The exchange records one of the sandbox account's logs a second time, with no uncertain attempt to explain it.
    const { uploads } = await run.sim.control('GET', '/__sim/uploads');
    const upload = uploads.find((u: { rawBody: string }) => u.rawBody.includes(`"${resent.marker}"`));
    const answer = await new SimSignedClient(run.sim.url, Date.now).post(UPLOAD_V3, upload.rawBody, SANDBOX_CREDENTIALS);
    expect(answer.status).toBe(200);

    const broken = await run.check();
    expect(broken).toMatchObject({ duplicateRows: 1, lost: 1, differentIds: 1, ackedIdsMissing: 2, exchangeDuplicatesWithoutUncertain: 1 });
    expect(failures(broken)).toEqual(['duplicateRows: 1', 'lost: 1', 'ackedIdsMissing: 2', 'differentIds: 1', 'exchangeDuplicatesWithoutUncertain: 1']);
    expect(broken.examples).toMatchObject({
      lost: [deleted.marker],
      duplicateRows: [{ marker: copied.marker, acked: [copied.id] }],
      exchangeDuplicatesWithoutUncertain: [resent.marker],
    });
  }, 180_000);

  it('takes every command documented in bench/fault-run.md (docs/benchmarks.md), and refuses a fault it does not know', () => {
    const doc = readFileSync(new URL('../bench/fault-run.md', import.meta.url), 'utf8');
    const commands = doc.split('\n').filter((line) => line.startsWith('npm run fault-run'));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    const plan = (args: string[]) => spawnSync(process.execPath, ['bench/fault-run.mjs', ...args, '--plan'], { cwd: ROOT, encoding: 'utf8' });
    for (const command of commands) {
      const args = command
        .replace(/#.*/, '')
        .trim()
        .split(/\s+/)
        .slice(3)
        .filter((arg) => arg !== '--');
      const result = plan(args);
      expect({ command, status: result.status, stderr: result.stderr }).toEqual({ command, status: 0, stderr: '' });
      expect(result.stdout).toMatch(/^faults of --seed=\d+ over \d+ s of load:$|^Options:$/m);
    }
    const bad = plan(['--faults=api-kill,disk-full']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown fault "disk-full"');
  });
});
