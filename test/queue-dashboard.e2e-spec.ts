import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { itInBrowser, launchChromium } from './support/browser.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-dashboard-tests';
const KEY = 'agent-key-for-dashboard-tests';
const LOG = '{"stage":"decision","model":"m","input":{"a":1},"output":{"b":2},"explanation":"why"}';

describe('queue dashboard (bull-board at /admin/queues)', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN, AGENT_API_KEY: KEY });
  let browser: Browser | undefined;
  afterAll(() => browser?.close());

  it('keeps the dashboard and its API behind admin auth', async () => {
    const url = suite.harness.apiUrl;
    const page = await fetch(`${url}/admin/queues`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/admin/sign-in?next=%2Fadmin%2Fqueues');
    expect((await fetch(`${url}/admin/queues/api/queues`)).status).toBe(401);
    expect((await fetch(`${url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(401);
    const signIn = (token: string) =>
      fetch(`${url}/admin/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect((await signIn('not-the-admin-token')).status).toBe(401);
    const ok = await signIn(ADMIN);
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).not.toContain(ADMIN);
    const api = await fetch(`${url}/admin/queues/api/queues`, { headers: { cookie: cookie.split(';')[0] } });
    expect(api.status).toBe(200);
    expect(JSON.stringify(await api.json())).toContain('ai-log-upload');
  });

  itInBrowser(
    'is a real page: headless Chromium signs in and sees the upload queue',
    async () => {
      browser = await launchChromium();
      const url = suite.harness.apiUrl;
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${url}/v1/ai-logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: LOG,
        });
        expect(res.status).toBe(202);
      }
      await waitFor('the uploads', async () => {
        const { rows } = await suite.db.query("SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded'");
        return rows[0].n === 3 ? true : undefined;
      });

      // Finished wake-ups stay for the dashboard to show (a day, or the last 1,000).
      const queues = (await (await fetch(`${url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
        queues: Array<{ name: string; counts: Record<string, number> }>;
      };
      const upload = queues.queues.find((q) => q.name === 'ai-log-upload');
      expect(upload?.counts.completed).toBeGreaterThanOrEqual(1);

      const page = await browser.newPage();
      // The page loads nothing from outside the gateway (no fonts or scripts from the internet).
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
      });
      await page.goto(`${url}/admin/queues`);
      expect(page.url()).toContain('/admin/sign-in');
      await page.fill('#token', 'a wrong token');
      await page.click('button[type=submit]');
      await page.waitForSelector('text=That is not the admin token.');
      await page.fill('#token', ADMIN);
      await page.click('button[type=submit]');
      await page.waitForURL(`${url}/admin/queues`);
      await page.waitForSelector('text=ai-log-upload', { timeout: 15_000 });
      // The queue's own page, with its job states.
      await page.click('text=ai-log-upload');
      await page.waitForSelector('text=Completed', { timeout: 15_000 });
      const shot = join(mkdtempSync(join(tmpdir(), 'dashboard-')), 'queues.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(await page.content()).toContain('ai-log-upload');
      expect(elsewhere).toEqual([]);
    },
    60_000,
  );
});
