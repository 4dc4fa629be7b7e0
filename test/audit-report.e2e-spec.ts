import { statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { EvidenceSyncService } from '#libs/evidence';
import { itInBrowser, launchChromium } from './support/browser.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { writeSeedFile } from './support/seed-file.js';
import { waitFor } from './support/wait-for.js';

const HOUR = 3_600_000;
const NOW = Date.now();
const orders = ['737185556881998601', '737185556881998602', '737185556881998603', '737185556881998604'];
const seedFile = writeSeedFile([
  {
    uid: '8000000001',
    orders: orders.map((orderId, i) => ({
      orderId,
      status: 'FILLED',
      symbol: 'BTCUSDT',
      side: i % 2 ? 'SELL' : 'BUY',
      origQty: '0.2',
      time: NOW - (30 - i * 6) * HOUR,
    })),
    trades: orders.map((orderId, i) => ({
      id: `73718555688199870${i}`,
      orderId,
      symbol: 'BTCUSDT',
      side: i % 2 ? 'SELL' : 'BUY',
      qty: '0.2',
      price: '97000.5',
      time: NOW - (30 - i * 6) * HOUR + 60_000,
    })),
    planOrders: [],
  },
]);

describe('audit report for judges (HTML, headless Chromium)', () => {
  const suite = gatewaySuite({ EVIDENCE_SYNC_INTERVAL_MS: '0' }, { simulator: { seedFile } });
  let browser: Browser | undefined;
  afterAll(() => browser?.close());

  itInBrowser(
    'shows coverage, the timeline of decisions against fills, models, and the gaps',
    async () => {
      const key = suite.harness.agentKey;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      // Decisions for the first three orders, by two model versions; the fourth order has none (a gap).
      const ids: string[] = [];
      for (const [i, orderId] of orders.slice(0, 3).entries()) {
        const body = `{"orderId":${orderId},"stage":"decision","model":"momentum-v${i < 2 ? 1 : 2}","input":{"i":${i}},"output":{"a":"BUY"},"explanation":"<b>not markup</b>"}`;
        ids.push(((await (await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, { method: 'POST', headers, body })).json()) as { id: string }).id);
      }
      await waitFor('the uploads', async () => {
        const { rows } = await suite.db.query("SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded'");
        return rows[0].n === 3 ? true : undefined;
      });
      await suite.harness.gateway.worker!.get(EvidenceSyncService).syncAccount('default');

      const bad = await fetch(`${suite.harness.apiUrl}/v1/audit/report?from=2026-01-01&to=2026-12-31`, { headers });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { errors: Array<{ path: string }> }).errors[0].path).toBe('from');

      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
      const res = await page.goto(`${suite.harness.apiUrl}/v1/audit/report`);
      expect(res!.status()).toBe(200);
      expect(await page.textContent('#orders-covered')).toMatch(/75\.0%\s*of 4 orders covered/);
      expect(await page.textContent('#fills-covered')).toMatch(/75\.0%\s*of 4 fills covered/);
      expect(await page.locator('#timeline circle').count()).toBe(3);
      expect(await page.locator('#timeline rect').count()).toBe(4);
      expect(await page.locator('#timeline line[stroke="#9aa4b5"]').count()).toBe(3);
      const models = await page.locator('#models tr').allTextContents();
      expect(models.slice(1)).toEqual([expect.stringMatching(/^momentum-v12\s*2/), expect.stringMatching(/^momentum-v21\s*1/)]);
      expect(await page.locator('.card', { hasText: 'AI decisions logged' }).textContent()).toMatch(/^3\s*AI decisions logged$/);
      expect(await page.locator('#gaps tr').allTextContents()).toEqual([expect.any(String), expect.stringContaining(orders[3])]);
      expect(await page.content()).not.toContain('<b>not markup</b>');
      const shot = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      if (process.env.REPORT_SCREENSHOT) await page.screenshot({ path: process.env.REPORT_SCREENSHOT, fullPage: true });

      // Each decision links to its proof, which a signed checkpoint now covers.
      expect((await fetch(`${suite.harness.apiUrl}/v1/audit/checkpoints`, { method: 'POST', headers })).status).toBe(200);
      const hrefs = await page.locator('#timeline a.proof').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs.sort()).toEqual(ids.map((id) => `/v1/ai-logs/${id}/proof`).sort());
      const listed = await page.locator('#decisions a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(listed.sort()).toEqual(hrefs);
      await page.locator(`#decisions a[href="/v1/ai-logs/${ids[1]}/proof"]`).click();
      await page.waitForURL(`**/v1/ai-logs/${ids[1]}/proof`);
      const proof = (await page.textContent('body')) ?? '';
      expect(proof).toMatch(/^c2sp\.org\/tlog-proof@v1\nextra \S+\nindex \d+\n/);
      expect(Buffer.from(/^extra (\S+)$/m.exec(proof)![1], 'base64').toString()).toContain(`"id":"${ids[1]}"`);
    },
    90_000,
  );
});
