// A realistic AI log of about 1.2 KB: what an agent posts after one decision. Written as text so that the 64-bit
// order id stays a bare JSON integer, as agents send it.

const candles = [
  [1763740800000, '91840.5', '92110.0', '91702.3', '92004.8', '412.337'],
  [1763744400000, '92004.8', '92388.1', '91950.0', '92301.2', '388.104'],
  [1763748000000, '92301.2', '92450.7', '92017.4', '92088.9', '297.551'],
  [1763751600000, '92088.9', '92197.3', '91801.6', '91866.0', '341.920'],
  [1763755200000, '91866.0', '92240.2', '91810.1', '92215.5', '365.018'],
  [1763758800000, '92215.5', '92630.0', '92190.8', '92577.3', '502.776'],
  [1763762400000, '92577.3', '92704.9', '92402.6', '92650.1', '455.230'],
];

const input = {
  symbol: 'BTCUSDT',
  interval: '1h',
  candles,
  indicators: { rsi14: 61.84, ema20: '92011.37', ema50: '91544.02', macd: { line: 148.21, signal: 97.63, hist: 50.58 }, atr14: '402.9' },
  position: { side: 'FLAT', size: '0' },
  fundingRate: '0.000082',
};

const output = { action: 'BUY', side: 'LONG', size: '0.015', leverage: 5, takeProfit: '93650.0', stopLoss: '91920.0', confidence: 0.72 };

const explanation =
  'Price closed above the 20 and 50 EMA with a rising MACD histogram and RSI at 62, below overbought. ' +
  'Funding is mildly positive, so longs pay little. Entering a small long with a stop under the last swing low ' +
  'and a take-profit near the previous high; risk is 0.5% of equity.';

/** One log as a JSON object text; `orderId` is a bare 64-bit integer, or left out when null (a decision to hold). */
export function logText(orderId = '737185556881998184') {
  const body = JSON.stringify({ orderId: 0, stage: 'decision', model: 'momentum-gpt-4.1-2026-11', input, output, explanation });
  return orderId === null ? body.replace('"orderId":0,', '') : body.replace('"orderId":0', `"orderId":${orderId}`);
}

/** `{ "logs": [ ... ] }` with `n` logs, for POST /v1/ai-logs/batch. */
export function batchText(n) {
  const logs = Array.from({ length: n }, (_, i) => logText(String(737185556881998184n + BigInt(i))));
  return `{"logs":[${logs.join(',')}]}`;
}
