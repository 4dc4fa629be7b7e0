// A long history in one account, written straight into PostgreSQL with generate_series (about 15 s per million
// logs here): the coverage bench (bench/coverage.mjs) and test/coverage-plans.e2e-spec.ts read it through a real API.
// The logs are spread evenly over `days` days ending at `now`; every `logsPerOrder`-th log names an order placed a
// second later, which has two fills; every tenth of those orders was placed by a plan order, and its log names the
// plan order's algoId. The other logs name no order (most) or one the exchange never reported (one in 50). The audit
// chain is numbered but not hashed: nothing here checks it.

export const ORDER_BASE = 737185556000000000n;
export const ALGO_BASE = 737185557000000000n;
export const UNKNOWN_BASE = 737185558000000000n;

/**
 * Fills the account (created if missing) with `logs` logs and their orders; returns how many orders it made.
 * `client` is a pg Client or Pool on the gateway's migrated database.
 */
export async function fillHistory(client, { accountId = 'default', logs, days, logsPerOrder, now = Date.now() }) {
  const agentKeyId = `history-${accountId}`;
  await client.query(`INSERT INTO accounts (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [accountId]);
  await client.query(`INSERT INTO agent_keys (id, account_id, key_hash, label) VALUES ($1, $2, $1, 'history') ON CONFLICT DO NOTHING`, [agentKeyId, accountId]);
  // Numbers are written into the statements (they are integers made here); $1 is the account, $2 the agent key.
  const [n, span, end, per] = [logs, days * 86_400_000, Math.round(now), logsPerOrder].map((v) => BigInt(v));
  const at = `to_timestamp((${end} - ${span}::bigint * (${n} - i) / ${n}) / 1000.0)`;
  await client.query(
    `INSERT INTO ai_logs (id, account_id, agent_key_id, order_id, stage, model, input, output, explanation, status,
                          attempt_count, next_attempt_at, received_at, uploaded_at, updated_at, seq, prev_hash, hash)
     SELECT md5($1 || i)::uuid, $1, $2,
       CASE WHEN i % ${per} = 0 THEN (CASE WHEN (i / ${per}) % 10 = 0 THEN ${ALGO_BASE} ELSE ${ORDER_BASE} END) + i / ${per}
            WHEN i % 50 = 7 THEN ${UNKNOWN_BASE} + i END,
       'decision', 'model-' || (i % 3),
       '{"prompt":"' || repeat('BTCUSDT 1h candles, funding and open interest. ', 20) || '"}',
       '{"action":"BUY","size":"0.01"}', 'Momentum and funding both favour a long.',
       (CASE WHEN i % 97 = 0 THEN 'failed' WHEN i % 89 = 0 THEN 'queued' ELSE 'uploaded' END)::ai_log_status,
       1, ${at}, ${at}, ${at}, ${at}, i, md5(i::text) || md5((i - 1)::text), md5((i + 1)::text) || md5(i::text)
     FROM generate_series(1, ${n}) AS i`,
    [accountId, agentKeyId],
  );
  const orders = `FROM generate_series(${per}, ${n}, ${per}) AS i`;
  const orderId = `${ORDER_BASE} + i / ${per}`;
  const placed = `${at} + interval '1 second'`;
  await client.query(
    `INSERT INTO exchange_orders (account_id, order_id, symbol, side, type, status, created_at, updated_at, data)
     SELECT $1, ${orderId}, 'BTCUSDT', 'BUY', 'MARKET', 'FILLED', ${placed}, ${placed},
       '{"orderId":"' || (${orderId}) || '","symbol":"BTCUSDT","status":"FILLED"}' ${orders}`,
    [accountId],
  );
  await client.query(
    `INSERT INTO exchange_trades (account_id, trade_id, order_id, symbol, time, data)
     SELECT $1, (${orderId}) * 10 + n, ${orderId}, 'BTCUSDT', ${placed},
       '{"tradeId":"' || ((${orderId}) * 10 + n) || '","side":"BUY","qty":"0.005","price":"60000"}'
     ${orders}, generate_series(1, 2) AS n`,
    [accountId],
  );
  await client.query(
    `INSERT INTO exchange_plan_orders (account_id, algo_id, actual_order_id, symbol, algo_status, created_at, updated_at, data)
     SELECT $1, ${ALGO_BASE} + i / ${per}, ${orderId}, 'BTCUSDT', 'TRIGGERED', ${at}, ${placed},
       '{"algoId":"' || (${ALGO_BASE} + i / ${per}) || '","algoStatus":"TRIGGERED"}' ${orders} WHERE (i / ${per}) % 10 = 0`,
    [accountId],
  );
  await client.query(
    `INSERT INTO audit_heads (account_id, seq, hash) VALUES ($1, ${n}, md5((${n} + 1)::text) || md5(${n}::text))
     ON CONFLICT (account_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`,
    [accountId],
  );
  return { orders: Math.floor(logs / logsPerOrder) };
}
