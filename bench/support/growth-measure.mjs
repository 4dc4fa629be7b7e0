// The measurements of the growth scenario (9), one function per phase of a step.
import { request } from 'node:http';
import { Queue } from 'bullmq';
import { AUTH } from './gateway.mjs';
import { logText } from './payload.mjs';
import { sleep } from './processes.mjs';
import { redisClient } from './services.mjs';

const DAY_MS = 86_400_000;
export const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** `n` filled orders of the sandbox account over the simulator's last 6 days (inside coverage's default 7), oldest first. */
export function seededOrders(n, now = Date.now()) {
  return Array.from({ length: n }, (_, i) => ({
    orderId: String(747000000000000000n + BigInt(i)),
    symbol: 'BTCUSDT',
    status: 'FILLED',
    side: i % 2 ? 'SELL' : 'BUY',
    positionSide: i % 2 ? 'SHORT' : 'LONG',
    origQty: '0.01',
    price: '92000',
    time: now - 6 * DAY_MS + Math.floor((i * 6 * DAY_MS) / n),
  }));
}

/** A call to the gateway, timed; `read` decides what to keep of the body (its text by default). */
export async function call(url, { method = 'GET', headers = AUTH, body, expect = 200, read = (res) => res.text(), signal } = {}) {
  const started = performance.now();
  const res = await fetch(url, { method, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, body, signal });
  const value = await read(res);
  const ms = performance.now() - started;
  if (res.status !== expect) throw new Error(`${method} ${url}: ${res.status} ${typeof value === 'string' ? value.slice(0, 500) : ''}`);
  return { ms, value };
}

/**
 * A call that may take at most `limitS`: beyond it, the answer is given up and the queries it left running in
 * PostgreSQL are cancelled (the API does not cancel them for a client that left), so that a call whose cost explodes
 * with the history neither stalls the run nor loads the machine for the next phases. Answers null when cut off.
 */
async function limitedCall(url, { limitS, database, ...options }) {
  const startedAt = new Date();
  try {
    return await call(url, { ...options, signal: AbortSignal.timeout(limitS * 1000) });
  } catch (error) {
    if (error?.name !== 'TimeoutError') throw error;
    await database.query(
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND query_start >= $1 AND query_start < now() - interval '5 seconds'`,
      [startedAt],
    );
    return null;
  }
}

/**
 * Pauses or resumes the account's uploads as an admin does; answers the call's time and the answer. Sent with
 * node:http rather than fetch, which gives up on an answer after 300 s (a resume grew with the backlog before issue 23).
 */
export async function adminUploads(api, action) {
  const started = performance.now();
  const { status, text } = await new Promise((resolve, reject) => {
    const req = request(`${api.url}/admin/accounts/default/${action}`, { method: 'POST', headers: ADMIN }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const ms = performance.now() - started;
  if (status !== 200) throw new Error(`POST /admin/accounts/default/${action}: ${status} ${text.slice(0, 500)}`);
  return { ms, answer: JSON.parse(text) };
}

/**
 * Posts logs `from`..`to` (0-based, of the whole run) in batches from several connections. The first logs of the run
 * name `orderIds`, one each; the others name no order (decisions to hold). Answers the rate over the step.
 */
export async function ingest(api, { from, to, orderIds, batch, connections }) {
  const plain = batchOf(Array(batch).fill(null));
  const text = (first, n) => (n === batch && first >= orderIds.length ? plain : batchOf(Array.from({ length: n }, (_, i) => orderIds[first + i] ?? null)));
  let next = from;
  const started = performance.now();
  const poster = async () => {
    while (next < to) {
      const first = next;
      const n = Math.min(batch, to - first);
      next += n;
      const { value } = await call(`${api.url}/v1/ai-logs/batch`, { method: 'POST', body: text(first, n), expect: 207 });
      if (value.includes('"rejected"')) throw new Error(`a batch had rejected logs: ${value.slice(0, 500)}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, poster));
  const seconds = (performance.now() - started) / 1000;
  return { logs: to - from, seconds, rate: (to - from) / seconds };
}

const batchOf = (orderIds) => `{"logs":[${orderIds.map((id) => logText(id)).join(',')}]}`;

/**
 * After a resume: the simulator's accepted uploads slice by slice (each slice clears them, so that its memory does not
 * grow with the run), until the account has nothing waiting or `capS` has passed. The last slice is cut short when
 * the backlog empties.
 */
export async function drain({ sim, database, backlog, sliceS, capS }) {
  const started = Date.now();
  const slices = [];
  let uploads = 0;
  let left = backlog;
  while (left > 0 && Date.now() - started < capS * 1000) {
    const sliceStarted = Date.now();
    // Polled within the slice too, so that the last slice ends when the backlog empties.
    while (Date.now() - sliceStarted < sliceS * 1000) {
      await sleep(Math.min(sliceS * 100, 500, Math.max(0, sliceStarted + sliceS * 1000 - Date.now())));
      const { uploads: now } = await sim.control('GET', '/__sim/stats');
      if (uploads + now >= backlog) break;
    }
    const { cleared } = await sim.control('DELETE', '/__sim/uploads');
    const seconds = (Date.now() - sliceStarted) / 1000;
    uploads += cleared;
    slices.push({ at: sliceStarted, seconds, uploads: cleared, rate: cleared / seconds });
    if (uploads >= backlog) left = await waiting(database);
  }
  if (left > 0) left = await waiting(database);
  const seconds = (Date.now() - started) / 1000;
  return { backlog, uploads, left, seconds, rate: uploads / seconds, slices };
}

/** The account's logs not yet uploaded or failed. */
export async function waiting(database) {
  const { rows } = await database.query(
    `SELECT count(*)::int AS n FROM ai_logs WHERE account_id = 'default' AND status IN ('queued', 'retrying', 'uploading')`,
  );
  return rows[0].n;
}

/**
 * Latencies of the reads an agent makes, one caller at a time: a log by id (random seqs of the chain), the audit head,
 * and an order's evidence (random orders of the seeded ones). The first tenth of each is warm-up.
 */
export async function reads(api, database, { total, orderIds, n }) {
  const seqs = Array.from({ length: n }, () => 1 + Math.floor(Math.random() * total));
  const { rows } = await database.query(`SELECT id::text FROM ai_logs WHERE account_id = 'default' AND seq = ANY($1::bigint[])`, [seqs]);
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const kinds = {
    logById: () => `/v1/ai-logs/${pick(rows).id}`,
    head: () => '/v1/audit/head',
    evidence: () => `/v1/orders/${pick(orderIds)}/evidence`,
  };
  const result = {};
  for (const [kind, path] of Object.entries(kinds)) {
    const times = [];
    for (let i = 0; i < n + Math.ceil(n / 10); i++) times.push((await call(`${api.url}${path()}`)).ms);
    result[kind] = percentiles(times.slice(Math.ceil(n / 10)));
  }
  return result;
}

/**
 * Coverage of the default window (the last 7 days), 3 times unless a run takes over 10 s: each run's time, and the
 * counts of the last. `cutOff` when a run took over `limitS`.
 */
export async function coverage(api, { limitS, database }) {
  const times = [];
  let body;
  for (let i = 0; i < 3 && !(times.at(-1) > 10_000); i++) {
    const answer = await limitedCall(`${api.url}/v1/compliance/coverage`, { limitS, database, read: (r) => r.json() });
    if (!answer) return { cutOff: true, times, ms: NaN };
    times.push(answer.ms);
    body = answer.value;
  }
  return { times, ms: median(times), orders: body.orders, fills: body.fills, unmatchedLogsTotal: body.unmatchedLogsTotal };
}

/** A body read as a stream and counted, never held: bytes and lines. */
async function countStream(res) {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  return { bytes, lines };
}

/** The judges' report (cut off beyond `limitS`, as coverage), the full export and a verify, each timed. */
export async function auditReads(api, { limitS, database, skipReport }) {
  const report = skipReport ? null : await limitedCall(`${api.url}/v1/audit/report`, { limitS, database, read: countStream });
  const exported = await call(`${api.url}/v1/audit/export`, { read: countStream });
  const verify = await call(`${api.url}/v1/audit/verify`, { read: (r) => r.json() });
  return {
    report: report ? { ms: report.ms, bytes: report.value.bytes } : { cutOff: !skipReport, skipped: !!skipReport, ms: NaN, bytes: NaN },
    export: { ms: exported.ms, bytes: exported.value.bytes, lines: exported.value.lines },
    verify: {
      ms: verify.ms,
      ok: verify.value.ok,
      complete: verify.value.complete,
      logs: verify.value.logs?.verifiedSeq,
      receipts: verify.value.receipts?.verifiedSeq,
    },
  };
}

/**
 * Collects the periodic queue's finished jobs (processedOn, finishedOn) every 2 s: the queue keeps only the last 100,
 * and the relay alone makes one every 2 s, so a run of the audit check would be gone before a step ends.
 */
export class PeriodicJobWatcher {
  runs = new Map();

  constructor(prefix) {
    this.redis = redisClient();
    this.queue = new Queue('periodic', { connection: this.redis, prefix });
    this.timer = setInterval(() => this.collect().catch(() => undefined), 2_000);
  }

  async collect() {
    for (const job of await this.queue.getJobs(['completed', 'failed'])) {
      if (job?.processedOn && job.finishedOn)
        this.runs.set(job.id, { name: job.name, at: job.processedOn, ms: job.finishedOn - job.processedOn, failed: !!job.failedReason });
    }
  }

  /** The runs of the jobs named `name` that started between `from` and `to` (start and run time), and their percentiles. */
  async between(name, from, to) {
    await this.collect();
    const runs = [...this.runs.values()].filter((r) => r.name === name && r.at >= from && r.at <= to).sort((a, b) => a.at - b.at);
    return { ...percentiles(runs.map((r) => r.ms)), failed: runs.filter((r) => r.failed).length, runs: runs.map(({ at, ms }) => ({ at, ms })) };
  }

  async stop() {
    clearInterval(this.timer);
    await this.queue.close();
    this.redis.disconnect();
  }
}

/** The tables that grow, and what autovacuum did to them so far. */
export async function tableStats(database) {
  const { rows } = await database.query(`
    SELECT relname AS table, pg_total_relation_size(relid) AS bytes, n_live_tup AS live, n_dead_tup AS dead,
           autovacuum_count AS autovacuums, autoanalyze_count AS autoanalyzes
    FROM pg_stat_user_tables WHERE relname IN ('ai_logs', 'upload_attempts') ORDER BY relname`);
  return Object.fromEntries(rows.map(({ table, ...r }) => [table, Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]))]));
}

export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
  return { n: sorted.length, min: sorted[0] ?? NaN, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

const median = (values) => percentiles(values).p50;
