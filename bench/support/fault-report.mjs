import { mb } from './format.mjs';
import { MUST_BE_ZERO } from './fault-check.mjs';

const n = (value) => (Number.isFinite(value) ? value.toLocaleString('en') : String(value));
const codes = (answers) =>
  Object.entries(answers)
    .map(([code, count]) => `${code}: ${n(count)}`)
    .join(' · ') || 'none';
const s = (value) => (value === null || value === undefined ? 'n/a' : `${value} s`);
const ms = (value) => (value === null || value === undefined ? 'n/a' : `${n(value)} ms`);

/** The report as a plain-text table (figure, value, and ✓/✗ for the must-be-zero ones), then the faults and examples. */
export function renderReport(report) {
  const f = report.figures;
  const rows = [
    ['requests sent', n(f.requests)],
    ['answers by status', codes(f.answers)],
    ['4xx / 5xx by code', `${codes(f.errors4xx)} / ${codes(f.errors5xx)}`],
    ['connection errors / client timeouts', `${n(f.connectionErrors)} / ${n(f.clientTimeouts)}`],
    ['decisions / logs sent', `${n(f.decisions)} / ${n(f.logsSent)}`],
    ['acked (logs with a 202/207 id)', n(f.acked)],
    ['stored rows (of this run / other)', `${n(f.stored)} (${n(f.storedMarkers)} markers / ${n(f.foreignRows)})`],
    ['stored, never acked', n(f.storedUnacked)],
    ['duplicateRows', n(f.duplicateRows)],
    ['lost', n(f.lost)],
    ['ackedIdsMissing', n(f.ackedIdsMissing)],
    ['differentIds', n(f.differentIds)],
    ['uploaded', n(f.uploaded)],
    ['failed', n(f.failed)],
    ['pending', n(f.pending)],
    ['exchange: uploads recorded / distinct logs', `${n(f.exchange.uploads)} / ${n(f.exchange.markers)}`],
    [
      'exchange duplicates (after an uncertain attempt)',
      `${n(f.exchange.duplicates)} (${n(f.exchange.afterUncertain)}; uncertain attempts ${n(f.exchange.uncertainAttempts)})`,
    ],
    [
      'exchangeDuplicatesWithoutUncertain',
      `${n(f.exchangeDuplicatesWithoutUncertain)} (of which second rows of a decision: ${n(f.exchange.withoutUncertainOfDuplicateRows)})`,
    ],
    ['uploadedNotAtExchange', n(f.uploadedNotAtExchange)],
    ['clientBugs', n(f.clientBugs)],
    ['gaveUp', n(f.gaveUp)],
    ['unexpectedExits', n(f.unexpectedExits)],
    ['ack latency p50 / p99 / max', `${ms(f.ackLatencyMs.p50)} / ${ms(f.ackLatencyMs.p99)} / ${ms(f.ackLatencyMs.max)}`],
    ['longest run of 409s for one request', ms(f.longest409Ms)],
    ['upload delay p50 / p99 / max', `${ms(f.uploadDelayMs.p50)} / ${ms(f.uploadDelayMs.p99)} / ${ms(f.uploadDelayMs.max)}`],
    [
      'longest gap between uploads, per account',
      Object.entries(f.longestAttemptGapMs)
        .map(([account, gap]) => `${account}: ${ms(gap)}`)
        .join(' · ') || 'none',
    ],
    [
      'replays: sent / same ids / different / no replay header',
      `${f.replays.sent} / ${f.replays.sameIds} / ${f.replays.differentIds} / ${f.replays.withoutReplayedHeader}`,
    ],
    ['agents done after the load', s(report.timings.agentsDoneS)],
    [
      'drain time (load end → all uploaded or failed)',
      report.timings.drainS === null ? `timed out (${report.options.drainTimeoutS} s)` : s(report.timings.drainS),
    ],
    ['peak RSS: API / worker', `${mb(report.rss.apiMb)} / ${mb(report.rss.workerMb)}`],
    ['runner event-loop delay p99 / max', `${ms(report.timings.runnerLoopDelayMs?.p99)} / ${ms(report.timings.runnerLoopDelayMs?.max)}`],
    ['load average at start / end', `${report.machine.load} / ${report.timings.loadAverageAtEnd}`],
    ['exchange faults injected', JSON.stringify(f.exchange.faultsInjected)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const mark = (label) => (label in MUST_BE_ZERO ? (f[label] === 0 ? '  ✓ must be 0' : '  ✗ must be 0') : '');
  const lines = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}${mark(label)}`);
  const faults = report.faultLog.map((e) => `  ${String(e.atS).padStart(6)} s  ${e.kind.padEnd(12)} ${e.detail}`);
  const examples = Object.entries(f.examples).filter(([name]) => f[name] > 0);
  return [
    ...lines,
    '',
    `faults played (${report.faultLog.length} steps${report.schedule.dropped.length ? `; dropped for lack of room: ${report.schedule.dropped.join(', ')}` : ''}):`,
    ...faults,
    ...(report.unexpectedExits.length
      ? [
          '',
          'unexpected exits:',
          ...report.unexpectedExits.map((e) => `  ${e.atS} s  ${e.name} exited, code ${e.code}, signal ${e.signal}; its last output:\n${e.output}`),
        ]
      : []),
    ...(examples.length ? ['', 'examples:', ...examples.map(([name, list]) => `  ${name}: ${JSON.stringify(list)}`)] : []),
  ].join('\n');
}
