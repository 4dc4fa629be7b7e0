import { inlineHash, pageSecurity } from '#libs/http';
import type { ReportData } from './audit-report.service.js';

const esc = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const iso = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19);
/** Decisions listed with their proof links; the timeline draws more. */
const PROOF_ROWS = 100;
const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; color: #1d2330; padding: 0 1rem; }
  h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #d8dce4; padding-bottom: .3rem; }
  .muted { color: #5b6475; } table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #eceff3; } th { background: #f5f6f8; }
  .cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 1rem; } .card { background: #f5f6f8; border-radius: 8px; padding: .8rem 1rem; }
  .card b { display: block; font-size: 1.6rem; } .ok { color: #1a7f37; } .bad { color: #b42318; } code { font-size: .8rem; word-break: break-all; }
  svg text { font-size: 11px; fill: #5b6475; }
`;

/** The report's headers: its one style block, by hash; no script, no request of any kind. */
export const REPORT_SECURITY = pageSecurity({ styleSrc: [inlineHash(STYLE)] });

/** The judges' report: one self-contained page (no scripts, no external assets), printable. */
export function renderReport(data: ReportData): string {
  const { coverage } = data;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AI decision report: ${esc(data.accountId)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>AI decision report</h1>
<p class="muted">Account <b>${esc(data.accountId)}</b> · ${esc(iso(data.from))} to ${esc(iso(data.to))} UTC · generated ${esc(iso(data.generatedAt))} UTC</p>

<h2>Coverage</h2>
<div class="cards">
  <div class="card" id="orders-covered"><b class="${coverage.orders.uncovered ? 'bad' : 'ok'}">${pct(coverage.orders.covered, coverage.orders.total)}</b>of ${coverage.orders.total} orders covered by an uploaded AI log</div>
  <div class="card" id="fills-covered"><b class="${coverage.fills.uncovered ? 'bad' : 'ok'}">${pct(coverage.fills.covered, coverage.fills.total)}</b>of ${coverage.fills.total} fills covered</div>
  <div class="card"><b>${data.decisionsTotal}</b>AI decisions logged</div>
  <div class="card"><b>${coverage.orders.uncovered}</b>gaps: ${coverage.orders.missing} without a log, ${coverage.orders.pending} pending, ${coverage.orders.failed} failed</div>
</div>
<p class="muted">Evidence synced from the exchange up to ${esc(coverage.sync.syncedUntil ?? 'never')}${coverage.sync.coversWindow ? '' : ' (<b class="bad">the sync has not reached the end of this window yet</b>)'}.</p>

<h2>Timeline: decisions against fills</h2>
${timeline(data)}

<h2>Decisions and their proofs</h2>
<p class="muted">The latest ${Math.min(PROOF_ROWS, data.decisions.length)} of ${data.decisionsTotal} decisions. Each proof (<code>GET /v1/ai-logs/:id/proof</code>, with the agent key) is a <code>c2sp.org/tlog-proof</code> file that <code>npm run audit:verify -- --proof FILE --key VKEY</code> or the <code>/verify</code> page checks with nothing else.</p>
<table id="decisions"><tr><th>received</th><th>model</th><th>order</th><th>status</th><th>proof</th></tr>
${
  data.decisions
    .slice(0, PROOF_ROWS)
    .map(
      (d) =>
        `<tr><td>${esc(iso(d.at))}</td><td>${esc(d.model)}</td><td>${esc(d.orderId ?? '')}</td><td>${esc(d.status)}</td><td><a href="/v1/ai-logs/${esc(d.id)}/proof"><code>${esc(d.id)}</code></a></td></tr>`,
    )
    .join('\n') || '<tr><td colspan="5">no logs in this window</td></tr>'
}
</table>

<h2>Models and versions</h2>
<table id="models"><tr><th>model</th><th>logs</th><th>uploaded</th><th>first</th><th>last</th></tr>
${data.models.map((m) => `<tr><td>${esc(m.model)}</td><td>${m.logs}</td><td>${m.uploaded}</td><td>${esc(iso(m.first))}</td><td>${esc(iso(m.last))}</td></tr>`).join('\n') || '<tr><td colspan="5">no logs in this window</td></tr>'}
</table>

<h2>Gaps: orders without an uploaded AI log</h2>
<table id="gaps"><tr><th>order</th><th>symbol</th><th>side</th><th>type</th><th>status</th><th>time</th><th>filled</th><th>why</th></tr>
${coverage.uncoveredOrders.map((o) => `<tr><td>${esc(o.orderId)}</td><td>${esc(o.symbol)}</td><td>${esc(o.side)}</td><td>${esc(o.type)}</td><td>${esc(o.status)}</td><td>${esc(o.time)}</td><td>${o.filled ? 'yes' : 'no'}</td><td class="bad">${esc(o.reason)}</td></tr>`).join('\n') || '<tr><td colspan="8" class="ok">none: every order in this window has its decision</td></tr>'}
</table>
${coverage.uncoveredOrdersTruncated ? '<p class="muted">The list is cut short; the coverage endpoint pages through all of them.</p>' : ''}

<h2>Logs naming no known order</h2>
<table id="unmatched"><tr><th>log</th><th>order named</th><th>status</th><th>received</th></tr>
${coverage.unmatchedLogs.map((l) => `<tr><td><code>${esc(l.id)}</code></td><td>${esc(l.orderId)}</td><td>${esc(l.status)}</td><td>${esc(l.receivedAt)}</td></tr>`).join('\n') || '<tr><td colspan="4">none</td></tr>'}
</table>

<h2>Tamper evidence</h2>
<p>Every accepted log is a link of a SHA-256 hash chain, and every upload attempt a link of a second one. Head: seq <b>${esc(data.head.seq)}</b>, hash <code>${esc(data.head.hash)}</code>.
<span id="chain-check">${checkLine(data.head.check)}</span>
Check an export with <code>npm run audit:verify -- export.jsonl --pubkey audit.pub.pem --head ${esc(data.head.hash)}</code>.</p>
<table id="checkpoints"><tr><th>seq</th><th>hash</th><th>signed at</th><th>key</th></tr>
${data.checkpoints.map((c) => `<tr><td>${esc(c.seq)}</td><td><code>${esc(c.hash)}</code></td><td>${esc(c.at)}</td><td><code>${esc(c.keyId.slice(0, 16))}…</code></td></tr>`).join('\n') || '<tr><td colspan="4">no signed checkpoints yet</td></tr>'}
</table>
</body>
</html>`;
}

/** The server-side check of the stored chains, in one sentence. */
function checkLine(check: ReportData['head']['check']): string {
  if (check.broken)
    return `<b>The server's check finds the stored chain broken</b> (${esc(check.broken.chain)}, seq ${esc(check.broken.seq ?? '-')}): ${esc(check.broken.reason)}.`;
  if (!check.checkedAt) return 'The server has not checked the stored chain yet.';
  return `The server's check verified the stored chain up to seq ${esc(check.verifiedSeq)} at ${esc(check.checkedAt)} and found it intact.`;
}

/** Decisions on the upper lane, fills on the lower, over the window; a line joins a fill to the decision that names its order. */
function timeline(data: ReportData): string {
  const width = 1060;
  const left = 80;
  const span = Math.max(1, data.to.getTime() - data.from.getTime());
  const x = (d: Date) => left + ((d.getTime() - data.from.getTime()) / span) * (width - left - 10);
  const decisionX = new Map<string, number>();
  for (const d of data.decisions) if (d.orderId) decisionX.set(d.orderId, x(d.at));
  const links = data.fills
    .filter((f) => decisionX.has(f.orderId))
    .map((f) => `<line x1="${decisionX.get(f.orderId)!.toFixed(1)}" y1="40" x2="${x(f.at).toFixed(1)}" y2="110" stroke="#9aa4b5" stroke-width="0.6"/>`);
  const decisions = data.decisions.map(
    (d) =>
      `<a href="/v1/ai-logs/${esc(d.id)}/proof" class="proof"><circle cx="${x(d.at).toFixed(1)}" cy="40" r="4" fill="${d.status === 'uploaded' ? '#1f6feb' : d.status === 'failed' ? '#b42318' : '#d4a72c'}"><title>${esc(iso(d.at))} ${esc(d.model)} ${esc(d.status)}${d.orderId ? ` order ${esc(d.orderId)}` : ''}: its proof</title></circle></a>`,
  );
  const fills = data.fills.map(
    (f) =>
      `<rect x="${(x(f.at) - 4).toFixed(1)}" y="106" width="8" height="8" transform="rotate(45 ${x(f.at).toFixed(1)} 110)" fill="${f.covered ? '#1a7f37' : '#b42318'}"><title>${esc(iso(f.at))} ${esc(f.symbol)} ${esc(f.side)} ${esc(f.qty)} @ ${esc(f.price)} order ${esc(f.orderId)}${f.covered ? '' : ' (no uploaded decision)'}</title></rect>`,
  );
  const note =
    data.decisionsTotal > data.decisions.length || data.fillsTotal > data.fills.length
      ? `<p class="muted">Showing the latest ${data.decisions.length} of ${data.decisionsTotal} decisions and ${data.fills.length} of ${data.fillsTotal} fills.</p>`
      : '';
  return `<svg id="timeline" viewBox="0 0 ${width} 150" width="100%" role="img" aria-label="decisions and fills over time">
  <text x="0" y="44">decisions</text><text x="0" y="114">fills</text>
  <line x1="${left}" y1="40" x2="${width - 10}" y2="40" stroke="#d8dce4"/><line x1="${left}" y1="110" x2="${width - 10}" y2="110" stroke="#d8dce4"/>
  ${links.join('')}${decisions.join('')}${fills.join('')}
  <text x="${left}" y="140">${esc(iso(data.from))}</text><text x="${width - 10}" y="140" text-anchor="end">${esc(iso(data.to))}</text>
</svg>
<p class="muted">● decision (blue uploaded, amber pending, red failed) · ◆ fill (green covered, red uncovered) · lines join a fill to its decision · each decision links to its proof (<code>GET /v1/ai-logs/:id/proof</code> with the agent key; check it with <code>npm run audit:verify -- --proof</code> or on <code>/verify</code>)</p>
${note}`;
}
