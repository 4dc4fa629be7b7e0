// The reckoning of a fault run: what the agents were told, what PostgreSQL holds and what the exchange recorded,
// marker by marker.

/** The figures that must be zero for the run to pass, with what each one means. */
export const MUST_BE_ZERO = {
  duplicateRows: 'rows beyond the first for one marker (a decision stored twice)',
  lost: 'acknowledged markers with no row',
  ackedIdsMissing: 'acknowledged ids with no row',
  differentIds: 'markers acknowledged with two different ids',
  exchangeDuplicatesWithoutUncertain: 'exchange duplicates not preceded by an attempt recorded `uncertain`',
  uploadedNotAtExchange: 'rows `uploaded` whose log the exchange never recorded',
  failed: 'rows `failed` (every injected fault is transient)',
  pending: 'rows neither uploaded nor failed when the drain ended',
  clientBugs: 'answers no correct agent should get (4xx other than 409/429, rejected batch items)',
  gaveUp: 'logs never acknowledged within the give-up time',
  unexpectedExits: 'gateway processes that exited without being killed',
};

/** Every figure of the run; `examples` keep a few markers of each non-zero must-be-zero figure, for diagnosis. */
export async function reckon({ database, sim, ledger, runId }) {
  const { rows } = await database.query(
    `SELECT id::text, account_id, status::text AS status, last_error, received_at, input::jsonb ->> 'faultRun' AS marker FROM ai_logs`,
  );
  const attempts = await database.query(`SELECT log_id::text, outcome, count(*)::int AS n FROM upload_attempts GROUP BY log_id, outcome`);
  const { uploads } = await sim.control('GET', '/__sim/uploads');
  const exchangeDuplicates = await sim.control('GET', '/__sim/uploads/duplicates');
  const simStats = await sim.control('GET', '/__sim/stats');
  const flow = await uploadFlow(database);

  const rowsByMarker = groupBy(rows, (r) => r.marker);
  const uncertainByLog = new Map(attempts.rows.filter((a) => a.outcome === 'uncertain').map((a) => [a.log_id, a.n]));
  const storedIds = new Set(rows.map((r) => r.id));
  const ours = (marker) => typeof marker === 'string' && marker.startsWith(`${runId}:`);

  const duplicated = [...rowsByMarker].filter(([marker, list]) => ours(marker) && list.length > 1);
  const acked = [...ledger.acks];
  const lost = acked.filter(([marker]) => !rowsByMarker.has(marker)).map(([marker]) => marker);
  const missingIds = acked.flatMap(([marker, ids]) => [...ids].filter((id) => !storedIds.has(id)).map((id) => `${marker} ${id}`));
  const differentIds = acked.filter(([, ids]) => ids.size > 1).map(([marker, ids]) => `${marker} ${[...ids].join(' ')}`);

  const exchangeMarker = (upload) => markerOfUpload(upload.rawBody);
  const atExchange = new Set(uploads.map(exchangeMarker));
  const bySeq = new Map(uploads.map((u) => [u.seq, u]));
  let afterUncertain = 0;
  let ofDuplicateRows = 0;
  const withoutUncertain = [];
  for (const body of exchangeDuplicates.bodies) {
    const marker = exchangeMarker(bySeq.get(body.firstSeq));
    // A log may reach the exchange again only after an attempt recorded uncertain: one more per such attempt.
    const markerRows = rowsByMarker.get(marker) ?? [];
    const uncertain = markerRows.reduce((sum, r) => sum + (uncertainByLog.get(r.id) ?? 0), 0);
    const unexplained = Math.max(0, body.count - 1 - uncertain);
    afterUncertain += body.count - 1 - unexplained;
    // What is left is a second row of the same decision uploaded in its own right, or a resend nothing explains.
    ofDuplicateRows += Math.min(unexplained, markerRows.length - 1);
    withoutUncertain.push(...Array(unexplained).fill(marker));
  }

  const status = countBy(rows, (r) => r.status);
  const uploadedNotAtExchange = rows.filter((r) => r.status === 'uploaded' && !atExchange.has(r.marker)).map((r) => r.marker);
  const failedRows = rows.filter((r) => r.status === 'failed');
  const pendingRows = rows.filter((r) => r.status !== 'uploaded' && r.status !== 'failed');
  const answers = ledger.answers;
  const examples = {
    duplicateRows: duplicated.slice(0, 5).map(([marker, list]) => ({
      marker,
      acked: [...(ledger.acks.get(marker) ?? [])],
      rows: list.map((r) => ({ id: r.id, status: r.status, receivedAt: r.received_at })),
    })),
    lost: lost.slice(0, 5),
    ackedIdsMissing: missingIds.slice(0, 5),
    differentIds: differentIds.slice(0, 5),
    exchangeDuplicatesWithoutUncertain: withoutUncertain.slice(0, 5),
    uploadedNotAtExchange: uploadedNotAtExchange.slice(0, 5),
    failed: failedRows.slice(0, 5).map((r) => ({ marker: r.marker, lastError: r.last_error })),
    pending: pendingRows.slice(0, 5).map((r) => ({ marker: r.marker, status: r.status })),
    clientBugs: ledger.bugs.slice(0, 5),
    gaveUp: ledger.gaveUp.slice(0, 5),
  };
  return {
    requests: ledger.requests,
    answers,
    connectionErrors: ledger.connectionErrors,
    clientTimeouts: ledger.clientTimeouts,
    decisions: ledger.decisions,
    logsSent: ledger.sent.size,
    acked: ledger.acks.size,
    stored: rows.length,
    storedMarkers: [...rowsByMarker.keys()].filter(ours).length,
    foreignRows: rows.filter((r) => !ours(r.marker)).length,
    storedUnacked: [...rowsByMarker.keys()].filter((m) => ours(m) && !ledger.acks.has(m)).length,
    duplicateRows: duplicated.reduce((sum, [, list]) => sum + list.length - 1, 0),
    lost: lost.length,
    ackedIdsMissing: missingIds.length,
    differentIds: differentIds.length,
    statuses: status,
    uploaded: status.uploaded ?? 0,
    failed: failedRows.length,
    pending: pendingRows.length,
    exchange: {
      uploads: uploads.length,
      markers: atExchange.size,
      duplicates: exchangeDuplicates.duplicates,
      afterUncertain,
      withoutUncertainOfDuplicateRows: ofDuplicateRows,
      uncertainAttempts: [...uncertainByLog.values()].reduce((a, b) => a + b, 0),
      faultsInjected: simStats.faults,
      rejectionsByCode: simStats.rejectionsByCode,
    },
    exchangeDuplicatesWithoutUncertain: withoutUncertain.length,
    uploadedNotAtExchange: uploadedNotAtExchange.length,
    clientBugs: ledger.bugs.length,
    gaveUp: ledger.gaveUp.length,
    errors4xx: pick(answers, (code) => code >= 400 && code < 500),
    errors5xx: pick(answers, (code) => code >= 500),
    ackLatencyMs: percentiles(ledger.ackLatenciesMs),
    ...flow,
    longest409Ms: ledger.longest409Ms,
    replays: ledger.replays,
    examples,
  };
}

/**
 * How steadily the logs flowed to the exchange: the upload delay (received → uploaded) of the uploaded logs, and each
 * account's longest gap between two attempts that went out (a dead worker's lapsed claims, recorded with no URL, are
 * not attempts that went out).
 */
async function uploadFlow(database) {
  const delay = await database.query(
    `SELECT percentile_disc(ARRAY[0.5, 0.99, 1]) WITHIN GROUP (ORDER BY ${MS('uploaded_at - received_at')}) AS p
     FROM ai_logs WHERE status = 'uploaded'`,
  );
  const gaps = await database.query(
    `SELECT account_id, ${MS('max(gap)')} AS gap FROM (
       SELECT account_id, started_at - lag(started_at) OVER (PARTITION BY account_id ORDER BY started_at) AS gap
       FROM upload_attempts WHERE url <> '') g GROUP BY account_id ORDER BY account_id`,
  );
  const [p50 = null, p99 = null, max = null] = delay.rows[0].p ?? [];
  return {
    uploadDelayMs: { p50, p99, max },
    longestAttemptGapMs: Object.fromEntries(gaps.rows.map((r) => [r.account_id, r.gap])),
  };
}

/** An interval's SQL as whole milliseconds (an integer, which pg reads as a number). */
const MS = (interval) => `round(extract(epoch FROM ${interval}) * 1000)::int`;

/** The must-be-zero figures that are not, as `name: value`. */
export function failures(figures) {
  return Object.keys(MUST_BE_ZERO)
    .filter((name) => figures[name] !== 0)
    .map((name) => `${name}: ${figures[name]}`);
}

/** The upload body's `input.faultRun`; the body's 64-bit orderId does not matter here. */
function markerOfUpload(rawBody) {
  try {
    return JSON.parse(rawBody).input?.faultRun;
  } catch {
    return undefined;
  }
}

function groupBy(list, key) {
  const groups = new Map();
  for (const item of list) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

function countBy(list, key) {
  const counts = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function pick(answers, test) {
  return Object.fromEntries(Object.entries(answers).filter(([code]) => test(Number(code))));
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : null);
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}
