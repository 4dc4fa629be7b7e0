import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { Timeline } from './coverage-data';
import { plural, when } from './format';

const HEIGHT = 300;
/**
 * Decisions and orders are marks on two rows in the bottom quarter (their own scale); fill prices have the right-hand
 * axis and the space above, so that neither hides the other.
 */
const ROW = { decisions: 2, orders: 1 } as const;
const ROWS: [number, number] = [0.5, 6.5];
/** The price scale's room below the lowest fill, as a share of the prices' span, for the rows. */
const BELOW_PRICES = 0.6;
const COLORS = { decision: '#1f5fbf', covered: '#1b7f3b', uncovered: '#b3261e', fill: '#b35c00' };

const marks = (label: string, scale: string, color: string, size = 9): uPlot.Series => ({
  label,
  scale,
  stroke: color,
  fill: color,
  paths: () => null,
  points: { show: true, size, stroke: color, fill: color },
});

/** Every event's time (s) once, and each series' value at it (null where it has none): uPlot's aligned data. */
function align(timeline: Timeline): uPlot.AlignedData {
  const events: [number, number, number][] = [
    ...timeline.logs.map((l): [number, number, number] => [Date.parse(l.receivedAt) / 1000, 1, ROW.decisions]),
    ...timeline.orders.map((o): [number, number, number] => [o.time / 1000, o.covered ? 2 : 3, ROW.orders]),
    ...timeline.fills.map((f): [number, number, number] => [f.time / 1000, 4, f.price]),
  ];
  const xs = [...new Set(events.map(([t]) => t))].sort((a, b) => a - b);
  const at = new Map(xs.map((t, i) => [t, i]));
  const ys: (number | null)[][] = [1, 2, 3, 4].map(() => new Array(xs.length).fill(null));
  for (const [t, series, y] of events) ys[series - 1][at.get(t)!] = y;
  return [xs, ...ys];
}

function options(width: number, from: number, to: number, lowest: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    // The console states every time in UTC; so does the axis.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      x: { time: true, range: [from / 1000, to / 1000] },
      row: { range: ROWS },
      price: { range: (_u, min, max) => [min - (max - min || max || 1) * BELOW_PRICES, max + (max - min || max || 1) * 0.05] },
    },
    axes: [
      {},
      {
        scale: 'row',
        splits: () => [ROW.orders, ROW.decisions],
        values: (_u, splits) => splits.map((v) => (v === ROW.decisions ? 'decisions' : v === ROW.orders ? 'orders' : '')),
        size: 80,
      },
      {
        scale: 'price',
        side: 1,
        grid: { show: false },
        size: 70,
        label: 'fill price',
        values: (_u, splits) => splits.map((v) => (v < lowest ? '' : v.toLocaleString('en'))),
      },
    ],
    series: [
      { label: 'time (UTC)' },
      marks('Decisions', 'row', COLORS.decision),
      marks('Orders covered', 'row', COLORS.covered),
      marks('Orders not covered', 'row', COLORS.uncovered, 11),
      marks('Fill price', 'price', COLORS.fill, 7),
    ],
  };
}

/** Decisions against orders and fills on one time axis, with fill prices; the tables beside it hold the same facts. */
export function CoverageChart({ timeline, from, to }: { timeline: Timeline; from: string; to: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    const plot = new uPlot(options(el.clientWidth, Date.parse(from), Date.parse(to), Math.min(...timeline.fills.map((f) => f.price))), align(timeline), el);
    let width = el.clientWidth;
    // Only a change of width resizes: resizing on every notice can loop (the plot's own height notifies too).
    const resized = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      plot.setSize({ width, height: HEIGHT });
    });
    resized.observe(el);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [timeline, from, to]);
  const covered = timeline.orders.filter((o) => o.covered).length;
  const summary =
    `Chart: ${plural(timeline.logs.length, 'decision')}, ${plural(timeline.orders.length, 'order')} (${covered} covered) ` +
    `and ${plural(timeline.fills.length, 'fill')} between ${when(from)} and ${when(to)}.`;
  return (
    <figure class="chart">
      <div ref={box} role="img" aria-label={summary} />
      <figcaption>
        {summary}
        {timeline.ordersCapped && ' Orders and fills are read for the first 40 orders only.'}
        {timeline.logsCapped && ' Decisions: the newest 2,000 only.'}
      </figcaption>
    </figure>
  );
}
