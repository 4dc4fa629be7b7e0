// Fills an account's two audit chains fast, with SQL, as valid chains: what ingest and the uploader would have written
// for `logs` logs, each uploaded, every RETRY_EVERY-th after a retryable attempt first (so some logs have two receipts
// and their last one is the later). Shared by the check's e2e test and the audit-check bench scenario.
import { randomUUID } from 'node:crypto';

const { canonicalLog, canonicalReceipt, chainHash, GENESIS_HASH } = await import('../../dist/libs/audit-chain/src/index.js');

/** Rows per INSERT statement, and the text of its logs at most (one log more). */
const BATCH = 5_000;
const BATCH_BYTES = 32 * 1024 * 1024;
const RETRY_EVERY = 10;
const URL = 'http://127.0.0.1/capi/v3/order/uploadAiLog';

const CANDLE = [1763740800000, '91840.5', '92110.0', '91702.3', '92004.8', '412.337'];
const candles = (kb) => Array.from({ length: Math.ceil((kb * 1024) / 60) }, (_, i) => [CANDLE[0] + i * 3_600_000, ...CANDLE.slice(1)]);

/**
 * Inputs as agents send them: about `smallKb` KB of candles, and every 10th of the first `bigUntil` logs about `bigKb`
 * KB (an agent that logs its whole prompt for a while). A log may be up to 1 MiB: what the check holds must not grow
 * with it.
 */
export function mixedBody({ smallKb = 1, bigKb = 256, bigUntil = 10_000 } = {}) {
  const small = candles(smallKb);
  const big = candles(bigKb);
  return (seq) => ({ symbol: 'BTCUSDT', seq, candles: seq <= bigUntil && seq % 10 === 0 ? big : small });
}

/**
 * Appends `logs` logs with their receipts to the account's chains (created, with its agent key, when absent), and
 * moves both heads; `client` is a connected pg client. `body` makes each log's input (default: a small object).
 * Answers both heads. Nothing is analysed: the tables keep whatever statistics they had.
 */
export async function seedChains(client, options) {
  // One transaction: a check running meanwhile sees both chains and their heads whole, or not at all.
  await client.query('BEGIN');
  try {
    const heads = await append(client, options);
    await client.query('COMMIT');
    return heads;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function append(client, { accountId = 'default', logs, body = (seq) => ({ seq }) }) {
  await client.query(`INSERT INTO accounts (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [accountId]);
  const agentKeyId = `seed-${accountId}`;
  await client.query(`INSERT INTO agent_keys (id, account_id, key_hash, label) VALUES ($1, $2, $1, $1) ON CONFLICT DO NOTHING`, [agentKeyId, accountId]);
  const heads = await client.query(
    `SELECT (SELECT seq::text FROM audit_heads WHERE account_id = $1) AS seq, (SELECT hash FROM audit_heads WHERE account_id = $1) AS hash,
            (SELECT seq::text FROM audit_receipt_heads WHERE account_id = $1) AS receipt_seq, (SELECT hash FROM audit_receipt_heads WHERE account_id = $1) AS receipt_hash`,
    [accountId],
  );
  let log = { seq: BigInt(heads.rows[0].seq ?? 0), hash: heads.rows[0].hash ?? GENESIS_HASH };
  let receipt = { seq: BigInt(heads.rows[0].receipt_seq ?? 0), hash: heads.rows[0].receipt_hash ?? GENESIS_HASH };
  const at = new Date(Date.UTC(2026, 10, 20));
  for (let done = 0; done < logs;) {
    const logRows = [];
    const receiptRows = [];
    for (let bytes = 0; done < logs && logRows.length < BATCH && bytes < BATCH_BYTES; done++) {
      const seq = log.seq + 1n;
      const receivedAt = new Date(at.getTime() + Number(seq) * 10);
      const accepted = {
        accountId,
        seq: String(seq),
        id: randomUUID(),
        receivedAt: receivedAt.toISOString(),
        agentKeyId,
        orderId: null,
        stage: 'decision',
        model: 'seed',
        input: body(Number(seq)),
        output: { ok: true },
        explanation: 'seeded',
      };
      const hash = chainHash(log.hash, canonicalLog(accepted));
      const input = JSON.stringify(accepted.input);
      bytes += input.length;
      logRows.push({ id: accepted.id, seq: Number(seq), prev_hash: log.hash, hash, received_at: accepted.receivedAt, input });
      const outcomes = Number(seq) % RETRY_EVERY === 0 ? ['retryable', 'uploaded'] : ['uploaded'];
      for (const outcome of outcomes) {
        const next = receipt.seq + 1n;
        const fields = {
          accountId,
          seq: String(next),
          logId: accepted.id,
          logSeq: String(seq),
          logHash: hash,
          target: 'simulator',
          url: URL,
          startedAt: accepted.receivedAt,
          finishedAt: accepted.receivedAt,
          outcome,
          httpStatus: outcome === 'uploaded' ? 200 : 503,
          exchangeCode: outcome === 'uploaded' ? '00000' : null,
          exchangeMessage: outcome === 'uploaded' ? 'success' : null,
          status: outcome === 'uploaded' ? 'uploaded' : 'retrying',
        };
        const receiptHash = chainHash(receipt.hash, canonicalReceipt(fields));
        receiptRows.push({ ...fields, seq: Number(next), prev_hash: receipt.hash, hash: receiptHash });
        receipt = { seq: next, hash: receiptHash };
      }
      log = { seq, hash };
    }
    await client.query(
      `INSERT INTO ai_logs (id, account_id, agent_key_id, stage, model, input, output, explanation, status, received_at, seq, prev_hash, hash)
       SELECT id, $2, $3, 'decision', 'seed', input, '{"ok":true}', 'seeded', 'uploaded', received_at, seq, prev_hash, hash
       FROM json_to_recordset($1::json) AS r(id uuid, input text, seq bigint, prev_hash text, hash text, received_at timestamptz)`,
      [JSON.stringify(logRows), accountId, agentKeyId],
    );
    await client.query(
      `INSERT INTO upload_attempts (log_id, account_id, target, url, started_at, finished_at, latency_ms, outcome, http_status, exchange_code,
                                    exchange_message, receipt_seq, prev_hash, hash, log_status)
       SELECT "logId", $2, target, url, "startedAt", "finishedAt", 0, outcome, "httpStatus", "exchangeCode", "exchangeMessage", seq, prev_hash, hash,
              status::ai_log_status
       FROM json_to_recordset($1::json) AS r("logId" uuid, target text, url text, "startedAt" timestamptz, "finishedAt" timestamptz, outcome text,
            "httpStatus" int, "exchangeCode" text, "exchangeMessage" text, seq bigint, prev_hash text, hash text, status text)`,
      [JSON.stringify(receiptRows), accountId],
    );
  }
  await client.query(
    `INSERT INTO audit_heads (account_id, seq, hash) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, updated_at = now()`,
    [accountId, log.seq.toString(), log.hash],
  );
  await client.query(
    `INSERT INTO audit_receipt_heads (account_id, seq, hash) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, updated_at = now()`,
    [accountId, receipt.seq.toString(), receipt.hash],
  );
  return { logs: { seq: log.seq.toString(), hash: log.hash }, receipts: { seq: receipt.seq.toString(), hash: receipt.hash } };
}
