import type { Browser, Page } from 'playwright-core';
import { itInBrowser, launchChromium } from '../support/browser.js';
import { gatewaySuite } from '../support/gateway-suite.js';
import { waitFor } from '../support/wait-for.js';

const ADMIN = 'admin-token-for-page-header-tests';
const KEY = 'agent-key-for-page-header-tests';
const LOG = '{"stage":"decision","model":"m","input":{"a":1},"output":{"b":2},"explanation":"why"}';

/** The CSP header as directive → sources. */
function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name, sources];
      }),
  );
}

/** What a browser page loaded that is not from the gateway, and what its CSP refused. */
async function watch(page: Page, origin: string): Promise<{ foreign: string[]; violations: string[] }> {
  const foreign: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  // Init scripts run outside the page's CSP: this one records every violation the page raises.
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
  });
  return { foreign, violations };
}

describe('every HTML page we serve has a CSP and helmet headers, and works under them in Chromium', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN, AGENT_API_KEY: KEY });
  let browser: Browser | undefined;
  afterAll(() => browser?.close());

  const pages = (): Array<[string, string, Record<string, string>]> => [
    ['sign-in', '/admin/sign-in', {}],
    ['dashboard', '/admin/queues', { authorization: `Bearer ${ADMIN}` }],
    ['Swagger UI', '/docs', {}],
    ['audit report', '/v1/audit/report', { authorization: `Bearer ${KEY}` }],
  ];

  it('sends a CSP without unsafe-inline scripts, frame-ancestors none, nosniff and a Referrer-Policy on each page', async () => {
    for (const [name, path, headers] of pages()) {
      const res = await fetch(`${suite.harness.apiUrl}${path}`, { headers });
      expect([name, res.status, res.headers.get('content-type')]).toEqual([name, 200, expect.stringMatching(/^text\/html/)]);
      const policy = csp(res);
      // Scripts from the gateway only; the report has none at all.
      expect([name, policy.get('script-src')]).toEqual([name, name === 'audit report' ? undefined : ["'self'"]]);
      const scripts = policy.get('script-src') ?? policy.get('default-src');
      expect([name, scripts]).toEqual([name, expect.not.arrayContaining(["'unsafe-inline'"])]);
      expect([name, scripts]).toEqual([name, expect.not.arrayContaining(["'unsafe-eval'"])]);
      expect([name, policy.get('default-src'), policy.get('frame-ancestors'), policy.get('object-src') ?? policy.get('default-src')]).toEqual([
        name,
        ["'none'"],
        ["'none'"],
        ["'none'"],
      ]);
      expect([name, res.headers.get('x-content-type-options'), res.headers.get('referrer-policy'), res.headers.get('x-frame-options')]).toEqual([
        name,
        'nosniff',
        'no-referrer',
        'DENY',
      ]);
    }
  });

  it('sends the basic headers on JSON answers too, ingest included', async () => {
    const url = suite.harness.apiUrl;
    const answers = [
      await fetch(`${url}/v1/ai-logs`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: LOG }),
      await fetch(`${url}/health/live`),
      await fetch(`${url}/admin/queue`, { headers: { authorization: `Bearer ${ADMIN}` } }),
      await fetch(`${url}/no/such/path`),
    ];
    for (const res of answers) {
      expect([res.url, res.headers.get('x-content-type-options'), res.headers.get('referrer-policy')]).toEqual([res.url, 'nosniff', 'no-referrer']);
      expect([res.url, csp(res).get('default-src'), csp(res).get('frame-ancestors')]).toEqual([res.url, ["'none'"], ["'none'"]]);
    }
    expect(answers.map((r) => r.status)).toEqual([202, 200, 200, 404]);
  });

  itInBrowser(
    'shows each page in Chromium with no CSP violation and nothing loaded from elsewhere',
    async () => {
      browser = await launchChromium();
      const url = suite.harness.apiUrl;
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${url}/v1/ai-logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: LOG,
        });
        expect(res.status).toBe(202);
      }
      await waitFor('the uploads', async () =>
        (await suite.db.query("SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded'")).rows[0].n >= 2 ? true : undefined,
      );
      const seen: Record<string, { foreign: string[]; violations: string[] }> = {};

      const admin = await browser.newPage();
      seen.dashboard = await watch(admin, url);
      await admin.goto(`${url}/admin/queues`);
      await admin.fill('#token', ADMIN);
      await admin.click('button[type=submit]');
      await admin.waitForURL(`${url}/admin/queues`);
      await admin.click('text=ai-log-upload', { timeout: 15_000 });
      await admin.click('text=Completed', { timeout: 15_000 });
      await admin.waitForLoadState('networkidle');

      const docs = await browser.newPage();
      seen.docs = await watch(docs, url);
      await docs.goto(`${url}/docs`);
      await docs.click('.opblock-summary >> nth=0', { timeout: 15_000 });
      await docs.waitForSelector('text=Try it out');
      await docs.waitForLoadState('networkidle');

      const report = await browser.newPage({ extraHTTPHeaders: { authorization: `Bearer ${KEY}` } });
      seen.report = await watch(report, url);
      await report.goto(`${url}/v1/audit/report`);
      await report.waitForSelector('#timeline');
      await report.waitForLoadState('networkidle');

      expect(seen).toEqual({
        dashboard: { foreign: [], violations: [] },
        docs: { foreign: [], violations: [] },
        report: { foreign: [], violations: [] },
      });
    },
    90_000,
  );
});
