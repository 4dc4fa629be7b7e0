import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { itInBrowser } from './support/browser.js';
import { consoleBrowser } from './support/console-page.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-console-action-tests';
const TEAM = 'agent-key-of-the-team-for-console-action-tests';
/** The harness simulator's account that is not on the AI-log allowlist: its uploads fail for good. */
const REFUSED = { apiKey: 'sim-key-not-allowlisted', secret: 'sim-secret-not-allowlisted', passphrase: 'sim-pass-not-allowlisted' };

/** An operator's actions: each sent once however often it is pressed, and a revoke only on a separate confirm. */
describe("the console's operator actions (headless Chromium)", () => {
  const suite = gatewaySuite({ AGENT_API_KEY: TEAM, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex') });
  const open = consoleBrowser();
  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const call = (token: string, path: string, body?: unknown) =>
    fetch(url(path), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const revokedAt = async (id: string) => (await suite.db.query('SELECT revoked_at FROM agent_keys WHERE id = $1', [id])).rows[0].revoked_at as Date | null;
  const inert = (button: Locator) => button.evaluate((el: any) => el.disabled || el.getAttribute('aria-disabled') === 'true');

  /**
   * Holds the answers to `method` requests for `pattern` until `release()`, counting them: while one is held, the test
   * presses the button again and checks that it is inert and that no second request went.
   */
  async function hold(page: Page, pattern: string, method: string) {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    await page.route(pattern, async (route) => {
      if (route.request().method() !== method) return route.continue();
      sent.push(route.request().url());
      await held;
      await route.continue();
    });
    return { sent, release, arrived: () => waitFor(`a ${method} ${pattern}`, async () => (sent.length > 0 ? true : undefined)) };
  }

  itInBrowser('sends pause, resume and retry once each, however often pressed while they are out', async () => {
    const { simulator } = suite.harness;
    const account = { id: 'refused', name: 'refused', ...REFUSED, baseUrl: simulator.url, spotBaseUrl: simulator.spotUrl };
    expect((await call(ADMIN, '/admin/accounts', account)).status).toBe(201);
    const key = ((await (await call(ADMIN, '/admin/agents', { accountId: 'refused', label: 'refused bot' })).json()) as { key: string }).key;
    const posted = await call(key, '/v1/ai-logs', { stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'refused' });
    const { id } = (await posted.json()) as { id: string };
    await waitFor('the log failed', async () => ((await (await call(key, `/v1/ai-logs/${id}`)).json()) as any).status === 'failed' || undefined);

    const { page, close, problems, unexpected } = await open(url('/console'), ADMIN);
    await page.locator('header select').selectOption('refused');
    await page.goto(url('/console#/health'));
    for (const [action, label, state] of [
      ['pause', 'Pause uploads', 'paused'],
      ['resume', 'Resume uploads', 'running'],
    ]) {
      const request = await hold(page, `**/admin/accounts/refused/${action}`, 'POST');
      const button = page.getByRole('button', { name: label });
      await button.press('Enter');
      await request.arrived();
      await button.press('Enter');
      await button.click({ force: true });
      expect([action, await inert(button)]).toEqual([action, true]);
      request.release();
      await page.locator('#main strong', { hasText: state }).waitFor();
      expect([action, request.sent.length]).toEqual([action, 1]);
    }

    await page.goto(url(`/console#/logs/${id}`));
    const request = await hold(page, `**/admin/logs/${id}/retry`, 'POST');
    const retry = page.getByRole('button', { name: 'Retry upload' });
    await retry.press('Enter');
    await request.arrived();
    await retry.press('Enter');
    expect(await inert(retry)).toBe(true);
    request.release();
    await page.getByText('Queued again.').waitFor();
    expect(request.sent.length).toBe(1);
    expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`)]).toEqual([[], []]);
    await close();
  });

  itInBrowser('revokes a key only on a separate confirm, which a double-click, Escape, blur or waiting disarms', async () => {
    const issued = await call(ADMIN, '/admin/agents', { accountId: 'default', label: 'doomed bot' });
    const { id } = (await issued.json()) as { id: string };
    const { page, close, problems, unexpected } = await open(url('/console'), ADMIN);
    await page.goto(url('/console#/health'));
    const row = page.locator('.keys li', { hasText: 'doomed bot' });
    const revoke = row.getByRole('button', { name: 'Revoke', exact: true });
    const confirm = row.getByRole('button', { name: 'Confirm: revoke doomed bot' });

    // A double-click arms the confirm and no more.
    await revoke.dblclick();
    await confirm.waitFor();
    await confirm.press('Escape');
    await revoke.waitFor();
    expect(await revokedAt(id)).toBeNull();
    // Armed, it disarms when the focus leaves it, or by itself.
    await revoke.press('Enter');
    await confirm.waitFor();
    await page.keyboard.press('Shift+Tab');
    await revoke.waitFor();
    await revoke.click();
    await confirm.waitFor();
    await revoke.waitFor();

    // A separate press, once the confirm takes presses, revokes; pressing it again while the DELETE is out sends none.
    const request = await hold(page, `**/admin/agents/${id}`, 'DELETE');
    await revoke.press('Enter');
    await row.locator('button:not([aria-disabled="true"])', { hasText: 'Confirm' }).waitFor();
    await confirm.press('Enter');
    await request.arrived();
    await confirm.press('Enter');
    expect(await inert(confirm)).toBe(true);
    request.release();
    await row.getByText(/revoked \d{4}-/).waitFor();
    expect([await revokedAt(id), request.sent.length]).toEqual([expect.any(Date), 1]);
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });
});
