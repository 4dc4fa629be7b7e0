import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { itInBrowser } from './support/browser.js';
import { consoleBrowser } from './support/console-page.js';
import { gatewaySuite } from './support/gateway-suite.js';

const ADMIN = 'admin-token-for-console-usability-tests';
const TEAM = 'agent-key-of-the-team-for-console-usability-tests';

/** Small things a person notices: where the focus goes, what a wrong key is called, which clock a time is on. */
describe('the console, for the person using it (headless Chromium)', () => {
  // Two wrong credentials from an address, and its next ones are refused for a while.
  const suite = gatewaySuite({ AGENT_API_KEY: TEAM, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex'), ADMIN_AUTH_MAX_FAILURES: '2' });
  const open = consoleBrowser();
  const url = (path: string) => `${suite.harness.apiUrl}${path}`;

  /** Waits until the focus is on the view's heading, and it reads `text`. */
  const headingFocused = (page: Page, text: string) =>
    page.waitForFunction((wanted) => {
      const focused = (globalThis as any).document.activeElement;
      return focused?.tagName === 'H1' && focused.textContent === wanted;
    }, text);

  itInBrowser("takes the focus to the first view's heading once signed in, and keeps it there while a log loads", async () => {
    const posted = await fetch(url('/v1/ai-logs'), {
      method: 'POST',
      headers: { authorization: `Bearer ${TEAM}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'focus' }),
    });
    const { id } = (await posted.json()) as { id: string };
    for (const credential of [TEAM, ADMIN]) {
      const { page, close, problems, unexpected } = await open(url('/console'), credential);
      await headingFocused(page, 'Decisions');
      await page.locator(`[data-log-id="${id}"] a`).press('Enter');
      await headingFocused(page, `Decision ${id}`);
      expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`)]).toEqual([[], []]);
      await close();
    }
  });

  it('sends /console/ to /console', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(url('/console/'), { method, redirect: 'manual' });
      expect([method, res.status, res.headers.get('location')]).toEqual([method, 308, '/console']);
    }
    expect((await fetch(url('/console/'))).url).toBe(url('/console'));
  });

  itInBrowser('calls a mistyped key not recognised, never a wrong admin token, also once the address is held back', async () => {
    const { page, close, problems, unexpected } = await open(url('/console'), undefined);
    const said: string[] = [];
    await page.locator('#credential').fill(`${TEAM}x`);
    for (let attempt = 0; attempt < 3; attempt++) {
      // The form clears its error as it sends: once the answer is in, the next text is this attempt's.
      const answered = page.waitForResponse((r) => r.url().endsWith('/console/session') && r.request().method() === 'POST');
      await page.locator('#credential').press('Enter');
      await answered;
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#credential-error').textContent !== '');
      said.push((await page.locator('#credential-error').textContent())!);
    }
    expect(said.slice(0, 2)).toEqual(Array(2).fill('That key or token was not recognised: check it and try again.'));
    expect(said[2]).toMatch(/^Too many keys or tokens not recognised from this address: try again in \d+ s\.$/);
    // The gateway's answer says so too.
    const res = await fetch(url('/console/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credential: 'x' }),
    });
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([429, expect.stringMatching(/^too many credentials not recognised/)]);
    expect([problems, unexpected('429 /console/session')]).toEqual([[], []]);
    await close();
  });

  itInBrowser('states every time in UTC, marked so, and reads the time filters as UTC wherever the browser is', async () => {
    const { page, close, problems, unexpected } = await open(url('/console'), TEAM, { timezoneId: 'America/New_York' });
    /** Times in the page's text that are not in the console's one form, `2026-01-01 00:00:00.000 UTC`. */
    const otherTimes = () => page.evaluate(() => (globalThis as any).document.getElementById('app').textContent.match(/\d{4}-\d\d-\d\dT\d\d:\d\d[^ ]*/g) ?? []);
    const UTC = /^expires \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC$/;
    expect(await page.locator('header .role').getAttribute('title')).toMatch(UTC);

    await page.getByLabel('From (UTC)').fill('2026-01-01T00:00:00');
    await page.getByLabel('To (UTC), exclusive').fill('2026-01-02T00:00:00');
    await page.getByLabel('To (UTC), exclusive').press('Enter');
    const range = 'from=2026-01-01T00%3A00%3A00.000Z&to=2026-01-02T00%3A00%3A00.000Z';
    await page.waitForFunction((wanted) => (globalThis as any).location.hash === `#/logs?${wanted}`, range);
    await page.reload();
    await page.getByText('No decision matches.').waitFor();
    expect(await page.getByLabel('From (UTC)').inputValue()).toBe('2026-01-01T00:00');
    expect(await otherTimes()).toEqual([]);

    await page.goto(url(`/console#/coverage?${range}`));
    await page.locator('.chart figcaption').waitFor();
    expect(await page.getByLabel('To (UTC), exclusive').inputValue()).toBe('2026-01-02T00:00');
    expect(await page.locator('#main').textContent()).toContain('From 2026-01-01 00:00:00.000 UTC to 2026-01-02 00:00:00.000 UTC.');
    expect(await page.locator('.chart figcaption').textContent()).toContain('between 2026-01-01 00:00:00.000 UTC and 2026-01-02 00:00:00.000 UTC');
    expect(await otherTimes()).toEqual([]);
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });
});
