import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { README_SAMPLE_ORDER_ID } from '../apps/exchange-sim/src/index.js';
import { itInBrowser } from './support/browser.js';
import { consoleBrowser } from './support/console-page.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-console-text-tests';
const TEAM = 'agent-key-of-the-team-for-console-text-tests';
/** Every string below holds `zq`, so that the page's check finds each text node that shows one. */
const BIDI = {
  model: 'zq-model\u202Eexe.txt',
  stage: 'zq-stage\u2066inner\u2069',
  explanation: 'zq pays \u200Fto\u200E \u202Eevil\u202C and \u2067this\u2069 \u2068too\u2069',
  input: { 'zq-key\u2067': 'zq-value\u202Ex' },
  output: { note: 'zq-out\u200Fy' },
};
const BIDI_LABEL = 'zq-bot\u202Eyek';
const LONG = { model: `m${'x'.repeat(299)}`, stage: `s${'y'.repeat(299)}`, explanation: 'z'.repeat(1000) };
/** Labels and account names stop at 200 characters. */
const LONG_NAME = `k${'w'.repeat(199)}`;
/** The harness simulator's account that is not on the AI-log allowlist. */
const REFUSED = { apiKey: 'sim-key-not-allowlisted', secret: 'sim-secret-not-allowlisted', passphrase: 'sim-pass-not-allowlisted' };
const CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/**
 * What a log's text may do to the page around it: bidi controls shown, not applied, and isolated from the next field;
 * strings with no space wrapped or scrolled in their own box, never the page's.
 */
describe('the console shows hostile and long log text (headless Chromium)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: TEAM, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex'), EVIDENCE_SYNC_INTERVAL_MS: '2000' });
  const open = consoleBrowser();
  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const call = (token: string, path: string, body: unknown) =>
    fetch(url(path), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  async function post(fields: { model: string; stage: string; explanation: string; input?: object; output?: object }, orderId?: bigint) {
    const res = await call(TEAM, '/v1/ai-logs', { input: {}, output: {}, ...fields, orderId: orderId?.toString() });
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  }

  /** Text nodes showing `zq` that no ancestor isolates (a <bdi>, or unicode-bidi isolate or plaintext). */
  const unisolated = (page: Page) =>
    page.evaluate(() => {
      const doc = (globalThis as any).document;
      const walker = doc.createTreeWalker(doc.getElementById('app'), 4 /* NodeFilter.SHOW_TEXT */);
      const bad: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.data.includes('zq')) continue;
        let isolated = false;
        for (let el = node.parentElement; el && !isolated; el = el.parentElement)
          isolated = el.tagName === 'BDI' || /isolate|plaintext/.test((globalThis as any).getComputedStyle(el).unicodeBidi);
        if (!isolated) bad.push(node.data);
      }
      return bad;
    });
  /** 'fits', or the innermost elements that reach past a 390 px viewport's right edge outside any scrolling box. */
  const fit = (page: Page) =>
    page.evaluate(() => {
      const { document: doc, getComputedStyle } = globalThis as any;
      if (doc.scrollingElement.scrollWidth <= 390) return 'fits';
      const clipped = (el: any): boolean => !!el.parentElement && (getComputedStyle(el.parentElement).overflowX !== 'visible' || clipped(el.parentElement));
      const past = [...doc.querySelectorAll('#app *')].filter((el: any) => el.getBoundingClientRect().right > 390 && !clipped(el));
      const innermost = past.filter((el: any) => !past.some((other: any) => other !== el && el.contains(other)));
      return innermost.map((el: any) => `${el.tagName.toLowerCase()}.${el.className}`).join(' ');
    });
  const appText = (page: Page) => page.evaluate(() => (globalThis as any).document.getElementById('app').textContent as string);
  async function expectControlsShownNotApplied(page: Page) {
    const text = await appText(page);
    expect(text).toContain('zq');
    const at = text.search(CONTROLS);
    expect(at < 0 ? 'none' : JSON.stringify(text.slice(at - 30, at + 10))).toBe('none');
    expect(await unisolated(page)).toEqual([]);
  }

  itInBrowser('shows bidi controls as visible marks, isolates every log string, and keeps the data as posted', async () => {
    const other = await post({ model: BIDI.model, stage: BIDI.stage, explanation: 'zq the other decision' }, README_SAMPLE_ORDER_ID);
    const id = await post(BIDI, README_SAMPLE_ORDER_ID);
    const key = await call(ADMIN, '/admin/agents', { accountId: 'default', label: BIDI_LABEL });
    expect(key.status).toBe(201);
    const { page, close, problems, unexpected } = await open(url('/console'), ADMIN);

    await page.locator(`[data-log-id="${id}"]`).waitFor();
    await page.locator(`[data-log-id="${other}"]`).waitFor();
    await expectControlsShownNotApplied(page);
    const mark = page.locator(`[data-log-id="${id}"] .log-model .control`).first();
    expect([await mark.textContent(), await mark.getAttribute('title')]).toEqual([
      '⟨U+202E⟩',
      'U+202E RIGHT-TO-LEFT OVERRIDE: an invisible character, shown here instead of applied',
    ]);

    await page.goto(url(`/console#/logs/${id}`));
    await page.locator('.evidence li a').first().waitFor();
    await page
      .locator('.json-text')
      .first()
      .evaluate((details: any) => (details.open = true));
    await expectControlsShownNotApplied(page);
    expect(await page.locator('.prose').textContent()).toBe('zq pays ⟨U+200F⟩to⟨U+200E⟩ ⟨U+202E⟩evil⟨U+202C⟩ and ⟨U+2067⟩this⟨U+2069⟩ ⟨U+2068⟩too⟨U+2069⟩');

    await page.goto(url('/console#/coverage'));
    const modelLink = page.locator('table a', { hasText: 'zq-model' }).first();
    await modelLink.waitFor();
    await expectControlsShownNotApplied(page);
    // The data is unchanged: the link filters by the model as posted, and finds its logs.
    expect(new URLSearchParams((await modelLink.getAttribute('href'))!.split('?')[1]).get('model')).toBe(BIDI.model);
    await modelLink.press('Enter');
    await page.locator(`[data-log-id="${id}"]`).waitFor();

    await page.goto(url('/console#/health'));
    await page.locator('.keys li', { hasText: 'zq-bot' }).waitFor();
    await expectControlsShownNotApplied(page);
    expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`)]).toEqual([[], []]);
    await close();

    // The key's label, in the header of a session it signed in.
    const team = await open(url('/console'), ((await key.json()) as { key: string }).key);
    await team.page.locator('header .role', { hasText: 'zq-bot' }).waitFor();
    await expectControlsShownNotApplied(team.page);
    expect([team.problems, team.unexpected()]).toEqual([[], []]);
    await team.close();
  });

  itInBrowser('reads every view at 390 px wide with 300-character names: the page never scrolls sideways', async () => {
    await post(LONG, README_SAMPLE_ORDER_ID);
    const id = await post(LONG, README_SAMPLE_ORDER_ID);
    // The evidence sync has brought the exchange's orders: the coverage view lists those no decision names.
    await waitFor('uncovered orders', async () => {
      const res = await fetch(url('/v1/compliance/coverage'), { headers: { authorization: `Bearer ${TEAM}` } });
      return ((await res.json()) as { uncoveredOrders: unknown[] }).uncoveredOrders.length > 0 || undefined;
    });
    const key = await call(ADMIN, '/admin/agents', { accountId: 'default', label: LONG_NAME });
    const { simulator } = suite.harness;
    const account = { id: 'long-name', name: LONG_NAME, ...REFUSED, baseUrl: simulator.url, spotBaseUrl: simulator.spotUrl };
    expect([key.status, (await call(ADMIN, '/admin/accounts', account)).status]).toEqual([201, 201]);
    const views: [string, string][] = [
      ['#/logs', `[data-log-id="${id}"]`],
      [`#/logs/${id}`, '.evidence li a'],
      ['#/coverage', 'table a[href*="orderId="]'],
      ['#/health', '#account-heading ~ p strong'],
    ];
    const fits: string[][] = [];
    // An admin's header lists the long account name; a team's names its key's long label.
    for (const [who, credential] of [
      ['admin', ADMIN],
      ['team', ((await key.json()) as { key: string }).key],
    ]) {
      const { page, close, problems, unexpected } = await open(url('/console'), credential, { viewport: { width: 390, height: 844 } });
      for (const [view, shown] of views) {
        await page.goto(url(`/console${view}`));
        await page.locator(shown).first().waitFor();
        fits.push([who, view, await fit(page)]);
      }
      // The wide tables scroll in their own boxes.
      await page.goto(url('/console#/coverage'));
      await page.locator('table a[href*="model=mxxx"]').waitFor();
      expect(await page.locator('.scroll').evaluateAll((boxes: any[]) => boxes.map((box) => box.clientWidth <= 390))).not.toContain(false);
      expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`)]).toEqual([[], []]);
      await close();
    }
    expect(fits).toEqual(['admin', 'team'].flatMap((who) => views.map(([view]) => [who, view, 'fits'])));
  });
});
