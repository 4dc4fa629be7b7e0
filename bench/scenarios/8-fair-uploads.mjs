import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAIRNESS, SANDBOX_UID, SIM_WINDOW, simWindow, TARGETS } from '../settings.mjs';
import { pct, windowShares } from '../support/budget-windows.mjs';
import { ms } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator, startWorker } from '../support/gateway.mjs';
import { batchText, logText } from '../support/payload.mjs';
import { cpuMs, poll, sleep } from '../support/processes.mjs';
import { uploadWorkers } from '../support/services.mjs';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** Account B, the flooder: an allowlisted account of the simulator's seed file, added to the gateway by an admin. */
const B = { uid: '8000000077', apiKey: 'bench-flooder-api-key', secret: 'bench-flooder-secret-0123456789', passphrase: 'bench-flooder-passphrase' };
/** How long A's last logs may take to be uploaded before the run is reported as it stands. */
const TAIL_MS = 120_000;

export const title =
  `Fair uploads: B floods a ${FAIRNESS.backlog.toLocaleString('en')}-log backlog, A posts one log a second ` +
  `(${FAIRNESS.apis} APIs, ${FAIRNESS.workers} workers, ${FAIRNESS.limit} per ${FAIRNESS.windowMs / 1000} s per account and per IP, ${SIM_WINDOW} windows)`;

/**
 * The production layout with two accounts. A posts a log a second; meanwhile B posts three quarters of its backlog
 * in batches at once, then the rest a batch every few seconds; the workers drain both. A's logs must not wait behind
 * B's backlog (upload delay, from commit to upload, p99 within 2 s); B must keep using what A leaves of the IP budget
 * they share (both together at least 95 % of it; B's own share includes A's use, so it says less); no 429, and no
 * span of the window ever holds more than the limit, as the simulator counts it (fixed or sliding: SIM_WINDOW). Worker
 * CPU per upload is the three workers' CPU over A's phase, per upload the simulator accepted meanwhile.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const seedDir = mkdtempSync(join(tmpdir(), 'gateway-bench-seed-'));
    cleanup.defer(async () => rmSync(seedDir, { recursive: true, force: true }));
    const seedFile = join(seedDir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ ...B, aiLogAllowlisted: true }] }));
    const sim = await startSimulator(cleanup, { SIM_SEED_FILE: seedFile });
    await sim.control('PUT', '/__sim/budgets', { windowMs: FAIRNESS.windowMs, ipLimit: FAIRNESS.limit, uidLimit: FAIRNESS.limit, ...simWindow() });
    const gateway = await gatewayEnvironment(cleanup, {
      ...sim.weexEnv,
      ADMIN_TOKEN,
      SECRETS_KEY: '7'.repeat(64),
      WEEX_IP_WEIGHT_LIMIT: String(FAIRNESS.limit),
      WEEX_UID_WEIGHT_LIMIT: String(FAIRNESS.limit),
      WEEX_WEIGHT_WINDOW_MS: String(FAIRNESS.windowMs),
      // Evidence sync spends the same budgets; turned off so that the run measures uploads alone.
      EVIDENCE_SYNC_INTERVAL_MS: '0',
    });
    const apis = [];
    for (let i = 0; i < FAIRNESS.apis; i++) apis.push(await startApi(cleanup, gateway.env));
    const workers = Array.from({ length: FAIRNESS.workers }, () => startWorker(cleanup, gateway.env));
    await poll('the workers to consume the queue', 60_000, async () => ((await uploadWorkers(gateway.prefix)) >= FAIRNESS.workers ? true : undefined));
    const keyB = await addAccountB(apis[0].url);
    const post = async (i, path, body, headers) => {
      const res = await fetch(`${apis[i % apis.length].url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    };
    // A posts a log a second throughout; B floods meanwhile: three quarters of its backlog in batches at once, the
    // rest a batch every few seconds. Both go to the APIs in turn.
    const batches = Math.ceil(FAIRNESS.backlog / FAIRNESS.batch);
    const upfront = Math.ceil((batches * 3) / 4);
    const batch = batchText(FAIRNESS.batch);
    const everyMs = (FAIRNESS.aLogs * 1000) / (batches - upfront + 1);
    const cpuBefore = workers.map((w) => cpuMs(w.pid).processMs);
    const acceptedBefore = (await sim.control('GET', '/__sim/stats')).uploads;
    const startedAt = Date.now();
    const postA = async () => {
      for (let s = 0; s < FAIRNESS.aLogs; s++) {
        await sleep(Math.max(0, startedAt + s * 1000 - Date.now()));
        await post(s, '/v1/ai-logs', logText(), AUTH);
      }
    };
    const postB = async () => {
      for (let i = 0; i < batches; i++) {
        if (i >= upfront) await sleep(Math.max(0, startedAt + (i - upfront + 1) * everyMs - Date.now()));
        await post(i, '/v1/ai-logs/batch', batch, { authorization: `Bearer ${keyB}` });
      }
    };
    await Promise.all([postA(), postB()]);
    const countA = async () =>
      (await gateway.database.query(`SELECT count(*)::int AS n FROM ai_logs WHERE account_id = 'default' AND status = 'uploaded'`)).rows[0].n;
    await poll("A's logs to be uploaded", TAIL_MS, async () => ((await countA()) === FAIRNESS.aLogs ? true : undefined)).catch(() => undefined);
    const endedAt = Date.now();
    const cpuMsAll = workers.reduce((sum, w, i) => sum + cpuMs(w.pid).processMs - cpuBefore[i], 0);
    const stats = await sim.control('GET', '/__sim/stats');
    const uploadsInPhase = stats.uploads - acceptedBefore;

    // A log still waiting counts with the time it has waited so far: its delay is at least that.
    const { rows } = await gateway.database.query(
      `SELECT extract(epoch FROM coalesce(uploaded_at, now()) - received_at) * 1000 AS ms, uploaded_at IS NULL AS waiting FROM ai_logs WHERE account_id = 'default' ORDER BY 1`,
    );
    const delays = rows.map((r) => Number(r.ms));
    const waiting = rows.filter((r) => r.waiting).length;
    const backlogLeft = (await gateway.database.query(`SELECT count(*)::int AS n FROM ai_logs WHERE account_id = 'flooder' AND status <> 'uploaded'`)).rows[0]
      .n;
    const inPhase = (uploads) => uploads.map((u) => u.receivedAt).filter((t) => t >= startedAt && t <= endedAt);
    const { uploads: uploadsB } = await sim.control('GET', `/__sim/uploads?uid=${B.uid}`);
    const { uploads: uploadsA } = await sim.control('GET', `/__sim/uploads?uid=${SANDBOX_UID}`);
    const windows = { limit: FAIRNESS.limit, windowMs: FAIRNESS.windowMs };
    const shareB = windowShares(inPhase(uploadsB), windows);
    const shareIp = windowShares([...inPhase(uploadsB), ...inPhase(uploadsA)], windows);
    const p50 = percentile(delays, 0.5);
    const p99 = percentile(delays, 0.99);
    const refused = stats.weight.refused429;
    const perUpload = cpuMsAll / uploadsInPhase;
    const phaseS = (endedAt - startedAt) / 1000;
    return {
      throughput: uploadsInPhase / phaseS,
      unit: 'uploads/s',
      p50,
      p99,
      rssMb: NaN,
      summary:
        `${SIM_WINDOW} windows: A's upload delay p50 ${ms(p50)}, p99 ${ms(p99)} (${delays.length} logs); the IP budget used ${pct(shareIp.meanShare)}, ` +
        `B alone ${pct(shareB.meanShare)}; worker CPU ${ms(perUpload)} per upload; 429s: ${refused}`,
      targets: [
        { text: `A's p99 ≤ ${TARGETS.fairUploadP99Ms / 1000} s`, pass: waiting === 0 && p99 <= TARGETS.fairUploadP99Ms },
        { text: `IP budget ≥ ${pct(TARGETS.budgetShare)} used`, pass: shareIp.meanShare >= TARGETS.budgetShare },
        { text: 'zero 429s', pass: refused === 0 },
        { text: `≤ ${FAIRNESS.limit} in any ${FAIRNESS.windowMs / 1000} s span`, pass: shareIp.mostInSpan <= FAIRNESS.limit },
      ],
      details: [
        `A posted ${FAIRNESS.aLogs} logs one a second; meanwhile B posted ${upfront} batches of ${FAIRNESS.batch} logs at once, then ${batches - upfront} more, one every ${(everyMs / 1000).toFixed(1)} s; ` +
          `${FAIRNESS.apis} API and ${FAIRNESS.workers} worker processes (UPLOAD_CONCURRENCY and UPLOAD_ACCOUNT_CONCURRENCY default)`,
        `A's upload delay (received_at to uploaded_at) over its ${delays.length} logs: p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(delays.at(-1))}` +
          (waiting ? `; ${waiting} not uploaded within ${TAIL_MS / 1000} s of the last post, counted with the time they waited` : ''),
        `B's uploads per ${FAIRNESS.windowMs / 1000} s window of A's phase: ${shareB.counts.join(', ')}; over the ${shareB.full.length} full window(s): ${pct(shareB.share)} of its ${FAIRNESS.limit}; ` +
          `B's logs still waiting at the end: ${backlogLeft}`,
        `the IP budget both share, per window: ${shareIp.counts.join(', ')}; over the full windows: ${pct(shareIp.share)} of ${FAIRNESS.limit}, ${pct(shareIp.meanShare)} in a span on average; ` +
          `most in any ${FAIRNESS.windowMs / 1000} s span (what a sliding-window exchange counts): ${shareIp.mostInSpan}`,
        `worker CPU over A's phase (${phaseS.toFixed(1)} s): ${Math.round(cpuMsAll)} ms for ${uploadsInPhase} uploads, ${ms(perUpload)} per upload; ` +
          `simulator: 429s ${refused}, rejections ${stats.rejections}`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** Adds account B with an agent key, as an admin would; returns the key. */
async function addAccountB(apiUrl) {
  const admin = async (path, body) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const { uid: _, ...credentials } = B;
  await admin('/admin/accounts', { id: 'flooder', name: 'B, flooding', ...credentials });
  return (await admin('/admin/agents', { accountId: 'flooder', label: 'flooder' })).key;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
}
