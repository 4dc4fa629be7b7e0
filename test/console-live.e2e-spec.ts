import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { itInBrowser } from './support/browser.js';
import { consoleBrowser } from './support/console-page.js';
import { gatewaySuite } from './support/gateway-suite.js';

const ADMIN = 'admin-token-for-console-live-tests';
const TEAM = 'agent-key-of-the-team-for-console-live-tests';

/** What a view shows after what it showed changed on the server: never an earlier answer. */
describe('the console keeps up with the gateway (headless Chromium)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: TEAM, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex') });
  const open = consoleBrowser();
  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const call = (token: string, path: string, body?: unknown) =>
    fetch(url(path), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Waits until the list shows exactly `count` rows, all of them with `status`. */
  const rowsWithStatus = (page: Page, count: number, status: string) =>
    page.waitForFunction(
      ([n, wanted]) => {
        const rows = [...(globalThis as any).document.querySelectorAll('[data-log-id] .status')];
        return rows.length === n && rows.every((row) => row.textContent === wanted);
      },
      [count, status] as const,
    );

  itInBrowser('updates every row it shows, loaded later too, and drops those that no longer match the filter', async () => {
    // Paused, the account's logs stay queued until it resumes.
    expect((await call(ADMIN, '/admin/accounts/default/pause')).status).toBe(200);
    const logs = Array.from({ length: 55 }, (_, i) => ({ stage: 'decision', model: 'm-live', input: {}, output: {}, explanation: `live ${i}` }));
    expect((await call(TEAM, '/v1/ai-logs/batch', { logs })).status).toBe(207);

    const all = await open(url('/console#/logs?model=m-live'), TEAM);
    const queued = await open(url('/console#/logs?model=m-live&status=queued'), TEAM);
    const polled = (page: Page) => page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/ai-logs');
    for (const { page } of [all, queued]) {
      await rowsWithStatus(page, 50, 'queued');
      // The polls read past the 50 shown, and still show 50 until "Load more" (two polls: the first one's render is in).
      await polled(page);
      await polled(page);
      expect(await page.locator('[data-log-id]').count()).toBe(50);
      await page.getByRole('button', { name: 'Load more' }).press('Enter');
      await rowsWithStatus(page, 55, 'queued');
    }

    expect((await call(ADMIN, '/admin/accounts/default/resume')).status).toBe(200);
    // Every row takes its new status, the five that "Load more" brought too; the filtered list empties.
    await rowsWithStatus(all.page, 55, 'uploaded');
    await queued.page.getByText('No decision matches.').waitFor();
    expect(await queued.page.locator('[data-log-id]').count()).toBe(0);
    for (const { close, problems, unexpected } of [all, queued]) {
      expect([problems, unexpected()]).toEqual([[], []]);
      await close();
    }
  });

  itInBrowser("never shows an earlier window's coverage while a new one loads or under its error", async () => {
    const { page, close, problems, unexpected } = await open(url('/console'), TEAM);
    await page.goto(url('/console#/coverage?days=7'));
    await page.locator('.chart canvas').waitFor();

    // The next window's answer is held: the page says it is loading, and shows no report.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/compliance/coverage?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(url('/console#/coverage?days=1'));
    await page.getByText('Loading…').waitFor();
    expect(await page.locator('.tiles, .chart').count()).toBe(0);
    release();
    await page.locator('.chart canvas').waitFor();
    await page.unroute('**/v1/compliance/coverage?*');

    // A window the gateway refuses (over 90 days): its error alone, not the last window's report under it.
    await page.goto(url('/console#/coverage?from=2020-01-01T00%3A00%3A00.000Z&to=2021-01-01T00%3A00%3A00.000Z'));
    await page.locator('.refusal').waitFor();
    expect(await page.locator('.tiles, .chart, h2').count()).toBe(0);
    expect([problems, unexpected('400 /v1/compliance/coverage')]).toEqual([[], []]);
    await close();
  });
});
