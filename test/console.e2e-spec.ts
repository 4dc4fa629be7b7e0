import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { README_SAMPLE_ORDER_ID, type RunningSimulator, startSimulator } from '../apps/exchange-sim/src/index.js';
import { itInBrowser, launchChromium } from './support/browser.js';
import { policyOf, signInByKeyboard, watch } from './support/console-page.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-console-ui-tests';
const TEAM_A = 'agent-key-of-team-a-for-console-ui-tests';
const TEAM_B = { apiKey: 'console-b-api-key', secret: 'console-b-secret-0123456789', passphrase: 'console-b-passphrase' };
/** The harness simulator's account that is not on the AI-log allowlist: its uploads fail for good. */
const REFUSED = { apiKey: 'sim-key-not-allowlisted', secret: 'sim-secret-not-allowlisted', passphrase: 'sim-pass-not-allowlisted' };
const BIG = '123456789012345678901234567890';
const HOSTILE = '<script>globalThis.pwned = 1</script><img src=x onerror="globalThis.pwned = 2"><b>bold</b>';
/**
 * Screenshots, taken on every run: into docs/console (for docs/console.md) with CONSOLE_SCREENSHOTS=1, else into a
 * temporary directory, since files changing in the working tree during a full run break the Dockerfile replay's cache.
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../docs/console') : join(tmpdir(), 'console-screenshots');

describe('the console (/console, headless Chromium)', () => {
  const suite = gatewaySuite({
    AGENT_API_KEY: TEAM_A,
    ADMIN_TOKEN: ADMIN,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    EVIDENCE_SYNC_INTERVAL_MS: '5000',
  });
  let browser: Browser | undefined;
  let teamBExchange: RunningSimulator;
  const keys: Record<'B' | 'C', string> = { B: '', C: '' };
  const logs: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };

  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(url(path), { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  /** Posts raw JSON text (a number past 2^53 stays as written); answers the log's id. */
  async function post(token: string, fields: string): Promise<string> {
    const res = await call(token, '/v1/ai-logs', { method: 'POST', body: `{"stage":"decision","model":"m-console",${fields}}` });
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  }
  const log = (explanation: string, extra = '') => `"input":{"a":1},"output":{"b":2},"explanation":${JSON.stringify(explanation)}${extra}`;
  const checkpoint = async (token: string) => expect((await call(token, '/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);

  /** A new browser context signed in as `credential`, watched from its first request (`before` adds listeners). */
  async function open(credential: string, viewport = { width: 1280, height: 800 }, before?: (page: Page) => void) {
    browser ??= await launchChromium();
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const watched = await watch(page);
    before?.(page);
    await page.goto(url('/console'));
    await signInByKeyboard(page, credential);
    return { page, close: () => context.close(), ...watched };
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    teamBExchange = await startSimulator({ port: 0, accounts: [{ uid: '8000000078', ...TEAM_B, aiLogAllowlisted: true }] });
    const { simulator } = suite.harness;
    for (const [id, credentials, exchange] of [
      ['team-b', TEAM_B, teamBExchange],
      ['team-c', REFUSED, simulator],
    ] as const) {
      const body = { id, name: id, ...credentials, baseUrl: exchange.url, spotBaseUrl: exchange.spotUrl };
      expect((await call(ADMIN, '/admin/accounts', { method: 'POST', body: JSON.stringify(body) })).status).toBe(201);
      const key = await call(ADMIN, '/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: id, label: `${id} bot` }) });
      keys[id === 'team-b' ? 'B' : 'C'] = ((await key.json()) as { key: string }).key;
    }
    logs.A = await post(TEAM_A, log('team A buys BTC'));
    logs.B = await post(keys.B, log('team B secret plan', ',"orderId":"123456789012345678"'));
    logs.C = await post(keys.C, log('team C is refused by the exchange'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await teamBExchange?.close();
  });

  it('serves the shell under a strict CSP, its hashed assets for a year, and nothing else', async () => {
    const res = await fetch(url('/console'));
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'text/html; charset=utf-8', 'no-cache']);
    const csp = policyOf(res.headers.get('content-security-policy'));
    const wanted = { 'default-src': 'none', 'script-src': 'self', 'style-src': 'self', 'connect-src': 'self', 'frame-ancestors': 'none' };
    for (const [directive, source] of Object.entries({ ...wanted, 'require-trusted-types-for': 'script' }))
      expect([directive, csp.get(directive)]).toEqual([directive, [`'${source}'`]]);
    expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe/);
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style|style=/);
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.map((a) => a.replace(/\.[A-Za-z0-9]+\.(js|css)$/, '.$1'))).toEqual(['/console/assets/console.css', '/console/assets/console.js']);
    for (const asset of assets) {
      const answer = await fetch(url(asset));
      const type = `text/${asset.endsWith('.js') ? 'javascript' : 'css'}; charset=utf-8`;
      const headers = [answer.headers.get('cache-control'), answer.headers.get('content-type')];
      expect([answer.status, ...headers]).toEqual([200, 'public, max-age=31536000, immutable', type]);
      expect(await answer.text()).not.toContain('sourceMappingURL');
    }
    for (const path of ['/console/assets/manifest.json', '/console/assets/..%2F..%2Fpackage.json', '/console/assets/console.js', '/console/assets/'])
      expect([path, (await fetch(url(path))).status]).toEqual([path, 404]);
    expect((await fetch(url('/console?next=%3Cscript%3Ealert(1)%3C%2Fscript%3E'))).status).toBe(400);
    const doc = (await (await fetch(url('/docs-json'))).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
  });

  itInBrowser('signs a team in by keyboard; a new log shows within 2 s, then its attempts, its order and its proof checked in the page', async () => {
    const { page, close, problems, unexpected } = await open(TEAM_A);
    const prompt = 'BTCUSDT 1h candles '.repeat(40);
    const id = await post(
      TEAM_A,
      `"orderId":${README_SAMPLE_ORDER_ID},"input":{"big":${BIG},"prompt":"${prompt}"},"output":{"size":1.10},"explanation":"Long."`,
    );
    const posted = Date.now();
    await page.locator(`[data-log-id="${id}"]`).waitFor({ timeout: 2_000 });
    expect(Date.now() - posted).toBeLessThan(2_000);
    await page.locator(`[data-log-id="${id}"] .status`, { hasText: 'uploaded' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'decisions.png') });

    // Filters go to the hash and the API; a refused one is named.
    await page.getByLabel('Explanation contains').fill('LONG');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (globalThis as any).location.hash === '#/logs?q=LONG');
    // The unfiltered rows leave at once and the filtered list comes after (a view shows nothing of its earlier query).
    await page.locator('[data-log-id]').nth(1).waitFor({ state: 'detached' });
    await page.locator(`[data-log-id="${id}"]`).waitFor();
    expect(await page.locator('[data-log-id]').count()).toBe(1);
    await page.getByLabel('Order ID').fill('12x');
    await page.keyboard.press('Enter');
    await page.locator('.refusal').waitFor();
    expect(await page.locator('.refusal').textContent()).toContain('orderId must be an order ID: 1 to 19 digits');
    await page.getByRole('link', { name: 'Clear' }).press('Enter');
    await page.locator(`[data-log-id="${logs.A}"]`).waitFor();

    await page.locator(`[data-log-id="${id}"] a`).press('Enter');
    await page.locator('h1', { hasText: id }).waitFor();
    const attempt = page.locator('table.attempts tbody tr').first();
    await attempt.waitFor();
    expect((await attempt.locator('td').allTextContents()).slice(3, 6)).toEqual(['uploaded', '200', '0']);
    expect(await page.locator('.json').first().textContent()).toContain(`"big": ${BIG}`);
    await page.locator('.evidence .coverage', { hasText: 'covered' }).waitFor();
    expect(await page.locator('.evidence').textContent()).toMatch(/Order 737185556881998184.*BTCUSDT.*BUY MARKET.*FILLED/);

    // No checkpoint covers the new log yet: the page says so, and checks again when asked.
    const verdict = page.locator('#verdict');
    await page.locator('#verdict[data-verdict="not-ready"]').waitFor();
    expect(await verdict.textContent()).toBe('Not yet covered by a signed checkpoint');
    expect(await page.locator('.proof').textContent()).toContain('Checking again in 60 s');
    await checkpoint(TEAM_A);
    await page.getByRole('button', { name: 'Check now' }).press('Enter');
    await page.locator('#verdict[data-verdict="verified"]').waitFor();
    expect(await verdict.textContent()).toBe("Verified by the gateway's key");
    await page.screenshot({ path: join(SHOTS, 'decision.png'), fullPage: true });

    // One byte of the proof's entry changed on its way: the page's own check refuses it.
    await page.route('**/v1/ai-logs/*/proof', async (route) => {
      const answer = await route.fetch();
      const text = await answer.text();
      const at = text.indexOf('\nextra ') + 20;
      await route.fulfill({ response: answer, body: text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1) });
    });
    await page.reload();
    await page.locator('#verdict[data-verdict="refused"]').waitFor();
    expect(await verdict.textContent()).toBe('Not verified');
    expect(await page.locator('.proof .reason').textContent()).toMatch(/^the entry is not at index \d+ of the signed tree of \d+: root mismatch/);
    expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`, '400 /v1/ai-logs')]).toEqual([[], []]);
    await close();
  });

  itInBrowser('renders what a log holds as text: no element made, no script run, no dialog', async () => {
    const id = await post(TEAM_A, `"input":{"html":${JSON.stringify(HOSTILE)}},"output":{"b":2},"explanation":${JSON.stringify(HOSTILE)}`);
    const { page, close, problems, unexpected } = await open(TEAM_A);
    await page.locator(`[data-log-id="${id}"] .log-explanation`, { hasText: 'globalThis.pwned' }).waitFor();
    expect(await page.locator(`[data-log-id="${id}"] .log-explanation`).textContent()).toBe(HOSTILE);
    await page.goto(url(`/console#/logs/${id}`));
    await page.locator('.prose').waitFor();
    expect(await page.locator('.prose').textContent()).toBe(HOSTILE);
    expect(await page.locator('.json').first().textContent()).toContain(HOSTILE);
    expect(await page.locator('#app img, #app script, #app b').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
    expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`)]).toEqual([[], []]);
    await close();
  });

  itInBrowser('shows team B its own account only: every view, and every call the page made answered for B', async () => {
    await checkpoint(keys.B);
    const calls: Promise<{ path: string; status: number; body: string; accountHeader?: string }>[] = [];
    let collecting = true; // the page keeps polling: a body read after the last view would outlive the page
    const { page, close, problems, unexpected } = await open(keys.B, undefined, (p) =>
      p.on('response', (r) => {
        const path = new URL(r.url()).pathname;
        const accountHeader = r.request().headers()['x-account-id'];
        if (!collecting || !path.startsWith('/v1/')) return;
        const call = r.text().then((body) => ({ path, status: r.status(), body, accountHeader }));
        call.catch(() => undefined); // awaited below; if the test fails first, its page closes under the read
        calls.push(call);
      }),
    );
    await page.locator(`[data-log-id="${logs.B}"]`).waitFor();
    expect(await page.locator('[data-log-id]').count()).toBe(1);
    const views: [string, string][] = [
      [`#/logs/${logs.B}`, '#verdict[data-verdict="verified"]'],
      ['#/coverage', '.chart canvas'],
      ['#/health', '#account-heading ~ .tiles'],
      [`#/logs/${logs.A}`, '.refusal'],
    ];
    for (const [view, shown] of views) {
      await page.goto(url(`/console${view}`));
      await page.locator(shown).first().waitFor();
    }
    expect(await page.locator('.refusal').textContent()).toContain(`no AI log ${logs.A} for this account`);
    collecting = false;
    const answers = await Promise.all(calls);
    expect(answers.length).toBeGreaterThan(8);
    for (const { path, status, body, accountHeader } of answers) {
      expect([path, accountHeader]).toEqual([path, undefined]);
      if (status === 404) continue; // A's log, asked for by its id: refused
      expect([path, /team A|"default"|agent-key-of-team-a/.test(body)]).toEqual([path, false]);
      for (const [, accountId] of body.matchAll(/"accountId":"([^"]*)"/g)) expect([path, accountId]).toEqual([path, 'team-b']);
    }
    // B's log names an order its exchange never reported.
    expect([problems, unexpected(`404 /v1/ai-logs/${logs.A}`, '404 /v1/orders/123456789012345678/evidence')]).toEqual([[], []]);
    await close();
  });

  itInBrowser('lets an admin pick an account, retry its failed log, pause and resume it, and see the queue', async () => {
    await waitFor('team C log failed', async () =>
      ((await (await call(keys.C, `/v1/ai-logs/${logs.C}`)).json()) as any).status === 'failed' ? true : undefined,
    );
    const requests: { path: string; account?: string }[] = [];
    const { page, close, problems, unexpected } = await open(ADMIN, undefined, (p) =>
      p.on('request', (r) => requests.push({ path: new URL(r.url()).pathname, account: r.headers()['x-account-id'] })),
    );
    expect(await page.locator('header').textContent()).toContain('admin');
    await page.locator('header select').selectOption('team-c');
    await page.locator(`[data-log-id="${logs.C}"]`).waitFor();
    expect(await page.locator('[data-log-id]').count()).toBe(1);
    await page.locator(`[data-log-id="${logs.C}"] a`).press('Enter');
    await page.getByRole('button', { name: 'Retry upload' }).press('Enter');
    await page.getByText('Queued again.').waitFor();
    await page.locator('table.attempts tbody tr').nth(1).waitFor();

    await page.goto(url('/console#/health'));
    await page.getByRole('button', { name: 'Pause uploads' }).press('Enter');
    await page.locator('#main strong', { hasText: 'paused' }).waitFor();
    expect((await suite.db.query('SELECT uploads_paused_at FROM accounts WHERE id = $1', ['team-c'])).rows[0].uploads_paused_at).not.toBeNull();
    // The chain's verdict agrees with its state: before the worker's first check of team C, no verdict.
    const chain = page.locator('#chain-check');
    await chain.waitFor();
    const verdicts = { unchecked: /^The chain is not checked yet: a worker checks /, ok: /^The chain holds up: verified up to seq 1 of 1, checked / };
    const state = (await chain.getAttribute('data-chain')) as keyof typeof verdicts;
    expect(await chain.textContent()).toMatch(verdicts[state]);
    await page.screenshot({ path: join(SHOTS, 'health.png'), fullPage: true });
    await page.getByRole('button', { name: 'Resume uploads' }).press('Enter');
    await page.locator('#main strong', { hasText: 'running' }).waitFor();
    expect(await page.locator('a[href="/admin/queues"]').count()).toBe(1);
    expect(await page.locator('#queue-heading').count()).toBe(1);
    // Every call for an account's data named the account; none for operator routes needed to.
    expect(requests.filter((r) => r.path.startsWith('/v1/') && !['default', 'team-c'].includes(r.account ?? ''))).toEqual([]);
    expect([problems, unexpected(`409 /v1/ai-logs/${logs.C}/proof`)]).toEqual([[], []]);
    await close();
  });

  itInBrowser('gives a judge the decisions (a page at a time), coverage and proofs of one account, and no operator action', async () => {
    const issued = await call(TEAM_A, '/v1/judge-keys', { method: 'POST', body: JSON.stringify({ label: 'round 2 panel', expiresInDays: 7 }) });
    expect(issued.status).toBe(201);
    await checkpoint(TEAM_A);
    const { page, close, problems, unexpected } = await open(((await issued.json()) as { key: string }).key);
    expect(await page.locator('header').textContent()).toContain('judge: round 2 panel');
    await page.locator(`[data-log-id="${logs.A}"]`).waitFor();
    await page.goto(url(`/console#/logs/${logs.A}`));
    await page.locator('#verdict[data-verdict="verified"]').waitFor();
    await page.goto(url('/console#/coverage'));
    await page.locator('.chart canvas').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'coverage.png'), fullPage: true });
    await page.goto(url('/console#/health'));
    await page.locator('#counts-heading').waitFor();
    // A page of 50, then the rest with the cursor.
    const many = Array.from({ length: 55 }, (_, i) => ({ stage: 'decision', model: 'm-page', input: {}, output: {}, explanation: `page ${i}` }));
    expect((await call(TEAM_A, '/v1/ai-logs/batch', { method: 'POST', body: JSON.stringify({ logs: many }) })).status).toBe(207);
    const rowsOfModel = (n: number) =>
      page.waitForFunction((count) => {
        const rows = [...(globalThis as any).document.querySelectorAll('.log-model')];
        return rows.length === count && rows.every((row) => row.textContent.startsWith('m-page'));
      }, n);
    await page.goto(url('/console#/logs?model=m-page'));
    await rowsOfModel(50);
    await page.getByRole('button', { name: 'Load more' }).press('Enter');
    await rowsOfModel(55);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /retry|pause|resume|revoke/i }).count()).toBe(0);
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });

  itInBrowser('reads at 390 px wide without scrolling sideways, and signs out', async () => {
    const { page, close, problems } = await open(TEAM_A, { width: 390, height: 844 });
    await page.locator('[data-log-id]').first().waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'decisions-390.png') });
    await page.getByRole('button', { name: 'Sign out' }).press('Enter');
    await page.getByText('Signed out.').waitFor();
    expect(await page.evaluate(() => fetch('/console/session').then((r) => r.status))).toBe(401);
    expect(problems).toEqual([]);
    await close();
  });
});
