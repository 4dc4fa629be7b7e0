import { seededRandom } from './fault-schedule.mjs';
import { sleep } from './processes.mjs';

/**
 * What the agents sent and were told, decision by decision: the other half of the reckoning (the database and the
 * exchange are the first). A marker names one decision's log (`<run>:<n>`, inside `input`), never reused.
 */
export class Ledger {
  requests = 0;
  answers = {};
  connectionErrors = 0;
  clientTimeouts = 0;
  decisions = 0;
  /** marker → account id, for every log sent */
  sent = new Map();
  /** marker → the ids the gateway answered for it (a Set: more than one is a second log) */
  acks = new Map();
  /** Answers no correct client gets for a valid log: 4xx other than 409/429, rejected batch items, malformed 2xx. */
  bugs = [];
  gaveUp = [];
  ackLatenciesMs = [];
  longest409Ms = 0;
  replays = { sent: 0, sameIds: 0, differentIds: 0, withoutReplayedHeader: 0 };
  #pending = new Set();

  answered(status) {
    this.answers[status] = (this.answers[status] ?? 0) + 1;
  }

  ack(marker, id) {
    const ids = this.acks.get(marker) ?? new Set();
    ids.add(id);
    this.acks.set(marker, ids);
  }

  bug(what) {
    this.bugs.push(what);
  }

  /** Keeps a background task (a replay) to be awaited before the reckoning. */
  track(promise) {
    this.#pending.add(promise);
    promise.finally(() => this.#pending.delete(promise));
  }

  async settled() {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
}

/**
 * Agents like the README's Python one, `agentsPerAccount` per account: each decision is one log (or a batch of
 * several) with an Idempotency-Key of its own, sent round robin to the APIs and retried with the same key on
 * connection errors, timeouts, 409, 429/503 (after Retry-After) and 5xx until it is acknowledged or `giveUpMs` has
 * passed. Decisions come at their pace whatever the answers (an agent logs from a thread of its own, up to
 * `maxOutstanding` decisions at once), so that a fault holding some decisions up does not hold the load back:
 * together they post about `ratePerS` logs a second until `loadEndsAt`, then finish the decisions under way.
 */
export async function runAgents({ cluster, ledger, runId, seed, loadEndsAt, options }) {
  const accounts = Object.entries(cluster.agentKeys);
  const total = accounts.length * options.agentsPerAccount;
  const meanLogs = 1 - options.batchShare + (options.batchShare * (2 + options.maxBatch)) / 2;
  const decisionsPerS = options.ratePerS / meanLogs / total;
  const counter = { next: 1 };
  const agents = accounts.flatMap(([accountId, token], a) =>
    Array.from({ length: options.agentsPerAccount }, (_, i) => {
      const index = a * options.agentsPerAccount + i;
      const agent = { name: `${accountId}#${i + 1}`, accountId, token, random: seededRandom(seed * 7919 + index + 1), turn: index };
      return agentLoop({ agent, cluster, ledger, runId, counter, loadEndsAt, decisionsPerS, options });
    }),
  );
  await Promise.all(agents);
  await ledger.settled();
}

async function agentLoop({ agent, cluster, ledger, runId, counter, loadEndsAt, decisionsPerS, options }) {
  const outstanding = new Set();
  let next = Date.now() + agent.random() * (1000 / decisionsPerS);
  for (;;) {
    await sleep(Math.max(0, next - Date.now()));
    if (Date.now() >= loadEndsAt) break;
    // Every draw is made here, in the agent's order, so that a seed gives the same decisions whatever the timing.
    const size = agent.random() < options.batchShare ? 2 + Math.floor(agent.random() * (options.maxBatch - 1)) : 1;
    const replayAfterMs = agent.random() < options.replayShare ? agent.random() * 10_000 : undefined;
    const markers = Array.from({ length: size }, () => `${runId}:${counter.next++}`);
    const decision = decide({ agent, cluster, ledger, runId, markers, replayAfterMs, options });
    outstanding.add(decision);
    decision.finally(() => outstanding.delete(decision));
    if (outstanding.size >= options.maxOutstanding) await Promise.race(outstanding);
    next += (-Math.log(1 - agent.random()) * 1000) / decisionsPerS; // exponential gaps: a Poisson stream of decisions
  }
  await Promise.all(outstanding);
}

async function decide({ agent, cluster, ledger, runId, markers, replayAfterMs, options }) {
  ledger.decisions += 1;
  for (const marker of markers) ledger.sent.set(marker, agent.accountId);
  const logs = markers.map((marker) => logText(marker, agent.name));
  const batch = markers.length > 1;
  const request = {
    path: batch ? '/v1/ai-logs/batch' : '/v1/ai-logs',
    body: batch ? `{"logs":[${logs.join(',')}]}` : logs[0],
    headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json', 'idempotency-key': `${runId}-${markers[0]}` },
  };
  const started = Date.now();
  const answer = await deliver(request, agent, cluster, ledger, started + options.giveUpMs, options.clientTimeoutMs);
  if (!answer) ledger.gaveUp.push(...markers);
  if (!answer || answer.refused) return;
  ledger.ackLatenciesMs.push(Date.now() - started);
  const ids = acknowledgedIds(answer, markers, request.path, ledger);
  ids.forEach((id, i) => id && ledger.ack(markers[i], id));
  if (replayAfterMs !== undefined) ledger.track(replay(request, ids, markers, replayAfterMs, agent, cluster, ledger, options));
}

/**
 * The same request again, some seconds later (faults may have come in between), as an agent does when it never saw
 * the first answer: it must be the first answer, with the same ids and `Idempotent-Replayed: true`.
 */
async function replay(request, ids, markers, afterMs, agent, cluster, ledger, options) {
  await sleep(afterMs);
  ledger.replays.sent += 1;
  const answer = await deliver(request, agent, cluster, ledger, Date.now() + options.giveUpMs, options.clientTimeoutMs);
  if (!answer || answer.refused) return;
  const again = acknowledgedIds(answer, markers, request.path, ledger);
  again.forEach((id, i) => id && ledger.ack(markers[i], id));
  if (again.every((id, i) => id === ids[i])) ledger.replays.sameIds += 1;
  else ledger.replays.differentIds += 1;
  if (answer.replayed !== 'true') ledger.replays.withoutReplayedHeader += 1;
}

/**
 * Sends until a 202/207 (returned), a 4xx no retry can mend (a bug, recorded and returned as `refused`), or the
 * deadline (undefined).
 */
async function deliver({ path, body, headers }, agent, cluster, ledger, deadline, timeoutMs) {
  const urls = cluster.apiUrls;
  let failures = 0;
  let first409;
  while (Date.now() < deadline) {
    const url = `${urls[agent.turn++ % urls.length]}${path}`;
    ledger.requests += 1;
    let res;
    let text;
    try {
      res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (error) {
      if (error.name === 'TimeoutError') ledger.clientTimeouts += 1;
      else ledger.connectionErrors += 1;
      // The next try goes to the other API at once; then back off, up to 2 s.
      await sleep(failures++ === 0 ? 0 : Math.min(2_000, 100 * 2 ** failures) * (0.5 + Math.random()));
      continue;
    }
    ledger.answered(res.status);
    if (res.status === 409) first409 ??= Date.now();
    else if (first409) {
      ledger.longest409Ms = Math.max(ledger.longest409Ms, Date.now() - first409);
      first409 = undefined;
    }
    if (res.status === 202 || res.status === 207) return { status: res.status, text, replayed: res.headers.get('idempotent-replayed') };
    if (res.status === 409 || res.status === 429 || res.status === 503) await sleep(retryAfterMs(res) ?? 1_000);
    else if (res.status >= 500) await sleep(500);
    else {
      ledger.bug({ status: res.status, path, answer: text.slice(0, 300) });
      return { refused: true };
    }
  }
  if (first409) ledger.longest409Ms = Math.max(ledger.longest409Ms, Date.now() - first409);
  return undefined;
}

/** The id of each marker's log in a 202 or 207 answer, in order; undefined where the answer gives none (a bug). */
function acknowledgedIds(answer, markers, path, ledger) {
  let json;
  try {
    json = JSON.parse(answer.text);
  } catch {
    ledger.bug({ status: answer.status, path, answer: answer.text.slice(0, 300) });
    return markers.map(() => undefined);
  }
  if (answer.status === 202) return [typeof json.id === 'string' ? json.id : undefined];
  return markers.map((marker, index) => {
    const result = json.results?.find((r) => r.index === index);
    if (result?.status === 'queued' && typeof result.id === 'string') return result.id;
    ledger.bug({ status: 207, path, marker, answer: JSON.stringify(result ?? null).slice(0, 300) });
    return undefined;
  });
}

function retryAfterMs(res) {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** One decision's log, about 500 bytes; `input.faultRun` is its marker, `orderId` a 64-bit id as digits. */
function logText(marker, agent) {
  const n = BigInt(marker.slice(marker.lastIndexOf(':') + 1));
  return JSON.stringify({
    orderId: String(737185556881998184n + n),
    stage: 'decision',
    model: 'fault-run-agent-1',
    input: { faultRun: marker, agent, symbol: 'BTCUSDT', interval: '1h', close: '92004.8', rsi14: 61.84, fundingRate: '0.000082' },
    output: { action: 'BUY', side: 'LONG', size: '0.015', leverage: 5, stopLoss: '91920.0' },
    explanation: 'Price closed above the 20 and 50 EMA with a rising MACD histogram; entering a small long.',
  });
}
