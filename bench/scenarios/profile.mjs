import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INGEST_CONNECTIONS } from '../settings.mjs';
import { profileMarkdown, summariseProfile } from '../profile-summary.mjs';
import { measureIngest } from '../support/ingest.mjs';
import { logText } from '../support/payload.mjs';

export const title = 'Scenario 2 again, with `node --cpu-prof` on the API process';

/** Where ingest spends its CPU. The profile is written when the API exits on SIGTERM. */
export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-prof-'));
  try {
    const result = await measureIngest({
      path: '/v1/ai-logs',
      body: logText(),
      connections: INGEST_CONNECTIONS,
      expectStatus: 202,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    });
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile written (the API exited with ${result.exitCode}): is its SIGTERM exit clean?`);
    return {
      throughput: result.load.perSecond,
      unit: 'logs/s',
      p50: result.load.p50,
      p99: result.load.p99,
      targets: [],
      summary: 'profiled (slower than unprofiled)',
      details: [`${result.load.ok} × 202 while profiling; the summary counts only the samples taken during the measured load, not start-up or warm-up`],
      profile: profileMarkdown(summariseProfile(join(dir, file), { top: 15, ...result.loadWindow })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
