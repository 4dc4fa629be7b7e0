import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { itInBrowser, launchChromium } from './support/browser.js';
import { gatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-verify-page-tests';
const BIG = '123456789012345678901234567890';
/** Posted as raw JSON text: the big integer and 1.10 must come back as written. */
const LOGS = [
  '{"stage":"signal","model":"m-v1","input":{"i":0},"output":{"a":1},"explanation":"first"}',
  `{"stage":"decision","model":"momentum-v2","orderId":737185556881998184,"input":{"big":${BIG}},"output":{"size":1.10},"explanation":"<b>not markup</b> & \\"quoted\\""}`,
  '{"stage":"decision","model":"m-v1","input":{"i":2},"output":{"a":3},"explanation":"third"}',
];

/** The CSP header as directive → sources. */
const policyOf = (header: string | null): Map<string, string[]> =>
  new Map(
    (header ?? '')
      .split(';')
      .filter((d) => d.trim())
      .map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name, sources];
      }),
  );

/** Console errors, uncaught exceptions and CSP violations of a page (an init script runs outside the page's CSP). */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
  });
  return problems;
}

/** Picks the file, types the key and presses Enter (no mouse); answers the verdict once the page has given it. */
async function verify(page: Page, name: string, file: string | Buffer, key: string): Promise<string> {
  await page.fill('#verifier-key', key);
  await page.setInputFiles('#proof-file', { name, mimeType: 'text/plain', buffer: Buffer.from(file) });
  // Choosing the file checks it already (the key is there); Enter checks it again, and the page answers that.
  const answered = Number((await page.getAttribute('#result', 'data-answers')) ?? 0);
  await page.press('#verifier-key', 'Enter');
  await page.waitForFunction((count) => Number((globalThis as any).document.getElementById('result').dataset.answers ?? 0) > count, answered);
  return (await page.textContent('#verdict'))!;
}

describe("the judges' proof verifier page (/verify, headless Chromium)", () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const dir = mkdtempSync(join(tmpdir(), 'verify-page-'));
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });

  itInBrowser(
    'verifies a decision from the API, refuses a tampered one, and does the same saved to disk with the network cut off',
    async () => {
      const ids: string[] = [];
      for (const body of LOGS) ids.push(((await (await call('/v1/ai-logs', { method: 'POST', body })).json()) as { id: string }).id);
      expect((await call('/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);
      const proofRes = await call(`/v1/ai-logs/${ids[1]}/proof`);
      expect(proofRes.status).toBe(200);
      const proof = await proofRes.text();
      const entry = Buffer.from(/^extra (.*)$/m.exec(proof)![1], 'base64').toString('utf8');
      expect(entry).toContain(`"big":${BIG}`);
      const vkey = (await (await call('/v1/audit/verifier-key')).text()).trim();

      // Served to anyone, as one static page under a strict CSP that allows its own script and style by hash.
      const res = await fetch(`${suite.harness.apiUrl}/verify`);
      expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
        200,
        'text/html; charset=utf-8',
        'public, max-age=3600',
      ]);
      const html = await res.text();
      const csp = policyOf(res.headers.get('content-security-policy'));
      const script = /<script>([\s\S]*)<\/script>/.exec(html)![1];
      const style = /<style>([\s\S]*)<\/style>/.exec(html)![1];
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      for (const [directive, sources] of Object.entries({
        'default-src': ["'none'"],
        'script-src': [hash(script)],
        'style-src': [hash(style)],
        'connect-src': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      }))
        expect([directive, csp.get(directive)]).toEqual([directive, sources]);
      expect([res.headers.get('x-frame-options'), res.headers.get('x-content-type-options')]).toEqual(['DENY', 'nosniff']);
      const again = await fetch(`${suite.harness.apiUrl}/verify`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);

      browser = await launchChromium();
      const page = await browser.newPage();
      const problems = await watch(page);
      await page.goto(`${suite.harness.apiUrl}/verify`);
      await page.focus('#proof-file');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('verifier-key');

      expect(await verify(page, 'decision.tlog-proof', proof, vkey)).toBe('Verified');
      expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('verdict');
      expect(await page.textContent('#entry')).toBe(entry);
      expect(await page.textContent('#entry-laid-out')).toContain(`"big": ${BIG}`);
      const facts = await page.$$eval(['#origin', '#tree-size', '#index', '#seq'].join(','), (els) => els.map((el) => el.textContent));
      expect(facts).toEqual(['weex-ai-log-gateway.local/default', '3', '1', '2']);
      const fields = Object.fromEntries(await page.$$eval('#field-rows tr', (rows) => rows.map((row) => [row.cells[0].textContent, row.cells[1].textContent])));
      expect(fields).toMatchObject({
        stage: 'decision',
        model: 'momentum-v2',
        orderId: '737185556881998184',
        explanation: '<b>not markup</b> & "quoted"',
        seq: '2',
      });
      expect(fields.input).toBe(`{"big":${BIG}}`);
      expect(fields.output).toBe('{"size":1.10}');
      expect(await page.locator('#result b').count()).toBe(0);

      const tampered = proof.replace(/^index 1$/m, 'index 2');
      expect(await verify(page, 'tampered.tlog-proof', tampered, vkey)).toBe('Not verified');
      expect(await page.textContent('#reason')).toMatch(/^the entry is not at index 2 of the signed tree of 3: /);
      expect(await page.isHidden('#details')).toBe(true);
      expect(await verify(page, 'big.tlog-proof', Buffer.alloc(10 << 20, 'a'), vkey)).toBe('Not verified');
      expect(await page.textContent('#reason')).toBe('malformed tlog proof: 10485760 bytes, the limit is 2097152');
      expect(await verify(page, 'garbage.tlog-proof', Buffer.of(0xff, 0xfe, 0x00, 0x0a), vkey)).toBe('Not verified');
      expect(await page.textContent('#reason')).toBe('malformed tlog proof: the proof is not valid UTF-8');

      // The page as a judge keeps it: a file, opened with every request refused.
      const saved = join(dir, 'verify.html');
      writeFileSync(saved, html);
      const offline: BrowserContext = await browser.newContext();
      const requests: string[] = [];
      offline.on('request', (request) => requests.push(request.url()));
      await offline.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
      const local = await offline.newPage();
      const localProblems = await watch(local);
      await local.goto(pathToFileURL(saved).href);
      expect(await verify(local, 'decision.tlog-proof', proof, vkey)).toBe('Verified');
      expect(await local.textContent('#entry')).toBe(entry);
      expect(await verify(local, 'tampered.tlog-proof', tampered, vkey)).toBe('Not verified');
      expect(requests).toEqual([pathToFileURL(saved).href]);

      // From plain HTTP at another host than localhost, a browser gives the page no WebCrypto: it says what to do.
      const insecure = await browser.newContext();
      await insecure.route('http://judge.example/verify', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
      const remote = await insecure.newPage();
      const remoteProblems = await watch(remote);
      await remote.goto('http://judge.example/verify');
      expect(await remote.textContent('#form-error')).toMatch(/^This browser gives this page no WebCrypto.*save this page/);
      await remote.setInputFiles('#proof-file', { name: 'decision.tlog-proof', mimeType: 'text/plain', buffer: Buffer.from(proof) });
      await remote.fill('#verifier-key', vkey);
      await remote.press('#verifier-key', 'Enter');
      expect(await remote.isHidden('#result')).toBe(true);
      expect([...problems, ...localProblems, ...remoteProblems]).toEqual([]);

      // Hostile query strings: the page takes none, so each is a 400 naming the parameter, never the page echoing it.
      const hostile = await browser.newPage();
      let dialogs = 0;
      hostile.on('dialog', (dialog) => {
        dialogs++;
        void dialog.dismiss();
      });
      for (const query of [
        '?next=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        '?key=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
        '?x=%00%ff',
        '?__proto__[a]=1',
      ]) {
        const res = await hostile.goto(`${suite.harness.apiUrl}/verify${query}`);
        expect([query, res!.status()]).toEqual([query, 400]);
        expect(res!.headers()['content-type']).toMatch(/^application\/json/);
        expect(await hostile.locator('script, img').count()).toBe(0);
      }
      expect(dialogs).toBe(0);
    },
    120_000,
  );
});
