/**
 * Uploads per budget window (windows of `windowMs` aligned to the clock, as the exchange counts weight), and the share
 * of `limit` they used over the windows the times cover whole (not the first and last, which are partial).
 */
export function windowShares(times, { limit, windowMs }) {
  times = [...times].sort((a, b) => a - b);
  if (times.length === 0) return { counts: [], full: [], share: NaN, spanMs: 0, bursts: [], perSecond: NaN, mostInSpan: 0, meanShare: NaN };
  const window = (t) => Math.floor(t / windowMs);
  const first = window(times[0]);
  const counts = Array.from({ length: window(times.at(-1)) - first + 1 }, () => 0);
  const spans = counts.map(() => ({ from: Infinity, to: -Infinity }));
  for (const t of times) {
    counts[window(t) - first] += 1;
    const span = spans[window(t) - first];
    [span.from, span.to] = [Math.min(span.from, t), Math.max(span.to, t)];
  }
  // How long it takes to spend a window's budget: the upload rate while there is budget.
  const bursts = spans.slice(1, -1).map((s) => s.to - s.from);
  const full = counts.slice(1, -1);
  const spanMs = times.at(-1) - times[0];
  // No full window: no honest share to give; a target on it then reads as missed.
  const share = full.length ? full.reduce((a, b) => a + b, 0) / full.length / limit : NaN;
  // The most in any span of windowMs, wherever it starts: what an exchange that limits on a sliding window counts.
  let mostInSpan = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= windowMs) j++;
    mostInSpan = Math.max(mostInSpan, i - j + 1);
  }
  return { counts, full, share, spanMs, bursts, perSecond: (times.length - 1) / (spanMs / 1000), mostInSpan, meanShare: meanShare(times, limit, windowMs) };
}

/**
 * The share of `limit` in a span of windowMs on average, over every span from the first time to the last (one every
 * 50 ms): what an exchange's fixed windows count on average whatever their alignment. Uploads paced by a span a little
 * longer than the window drift through aligned windows, so that a few aligned windows over- or understate their rate
 * by up to a burst; pacing locked to aligned windows reads high here, up to twice the limit (`mostInSpan`). NaN when
 * the times cover no whole span.
 */
function meanShare(times, limit, windowMs) {
  let [spans, sum] = [0, 0];
  for (let start = times[0], i = 0, j = 0; start + windowMs <= times.at(-1); start += 50, spans++) {
    while (times[i] < start) i++;
    while (j < times.length && times[j] < start + windowMs) j++;
    sum += j - i;
  }
  return spans ? sum / spans / limit : NaN;
}

export const pct = (share) => (Number.isFinite(share) ? `${(share * 100).toFixed(1)}%` : 'n/a');
