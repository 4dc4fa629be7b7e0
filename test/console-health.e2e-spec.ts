import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { noteVerifierKey } from '#libs/audit-chain';
import { generateKey } from '#libs/signed-note';
import { type RunningWitness, startWitness } from '../apps/witness/src/start-witness.js';
import { itInBrowser } from './support/browser.js';
import { closedPort } from './support/closed-port.js';
import { consoleBrowser } from './support/console-page.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { writeSeedFile } from './support/seed-file.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-console-health-tests';
const TEAM = 'agent-key-of-the-team-for-console-health-tests';
const ORIGIN = 'console-health.example';
const HOUR = 3_600_000;
/** Each wait of the setup, and each test: the machine may be busy with other suites. */
const SLOW = 60_000;
const NOW = Date.now();
// The exchange holds three orders of the last hours; one decision names the first: two lack a decision.
const ORDERS = ['737185556881997001', '737185556881997002', '737185556881997003'];
const seedFile = writeSeedFile([
  {
    uid: '8000000001',
    orders: [
      ...ORDERS.slice(0, 2).map((orderId, i) => ({
        orderId,
        status: 'FILLED',
        symbol: 'BTCUSDT',
        side: 'BUY',
        positionSide: 'LONG',
        time: NOW - (i + 1) * HOUR,
      })),
      { orderId: ORDERS[2], status: 'CANCELED', symbol: 'ETHUSDT', side: 'SELL', positionSide: 'SHORT', time: NOW - 3 * HOUR },
    ],
    trades: [],
    planOrders: [],
  },
]);
const dir = mkdtempSync(join(tmpdir(), 'console-health-'));
const { privateKey } = generateKeyPairSync('ed25519');
/** A witness configured but never running: its last request is unreachable. */
const ABSENT = generateKey('w-absent.example');

interface Head {
  seq: string;
  check: { ok: boolean; verifiedSeq: string };
  witnesses: { witness: string; cosignedSize: string; outcome: string | null }[];
}

/** What Health shows each role beyond the counts: budget use, coverage gaps, the chain and its witnesses, judge keys. */
describe("the console's Health view (headless Chromium)", () => {
  const env: Record<string, string> = {
    AGENT_API_KEY: TEAM,
    ADMIN_TOKEN: ADMIN,
    AUDIT_ORIGIN: ORIGIN,
    AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    EVIDENCE_SYNC_INTERVAL_MS: '2000',
  };
  let witness: RunningWitness;
  beforeAll(async () => {
    const { signerKey } = generateKey('w-running.example');
    witness = await startWitness({ key: signerKey, logs: `${ORIGIN}/* ${noteVerifierKey(privateKey, ORIGIN)}`, stateFile: join(dir, 'w.json'), port: 0 });
    env.AUDIT_WITNESSES = `${witness.url} ${witness.verifierKey};http://127.0.0.1:${await closedPort()} ${ABSENT.verifierKey}`;
  });
  const suite = gatewaySuite(env, { simulator: { seedFile } });
  const open = consoleBrowser();
  afterAll(async () => {
    await witness?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const call = (token: string, path: string, init: RequestInit = {}) =>
    fetch(url(path), { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  const read = async <T>(path: string): Promise<T> => {
    const res = await call(TEAM, path);
    expect([path, res.status]).toEqual([path, 200]);
    return (await res.json()) as T;
  };
  let judgeKey = '';
  let head: Head;

  beforeAll(async () => {
    const res = await call(TEAM, '/v1/ai-logs', {
      method: 'POST',
      body: `{"orderId":${ORDERS[0]},"stage":"decision","model":"m-health","input":{},"output":{},"explanation":"covers the first order"}`,
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await waitFor('the decision uploaded', async () => ((await read<{ status: string }>(`/v1/ai-logs/${id}`)).status === 'uploaded' ? true : undefined), SLOW);
    // The evidence sync has brought the three orders, and the uploaded decision covers the first.
    await waitFor(
      'the orders synced',
      async () => {
        const { orders } = await read<{ orders: { total: number; covered: number } }>(`/v1/compliance/coverage?from=${NOW - 86_400_000}&to=${Date.now()}`);
        return orders.total === 3 && orders.covered === 1 ? true : undefined;
      },
      SLOW,
    );
    expect((await call(TEAM, '/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);
    head = await waitFor(
      'the running witness cosigned, the absent one tried',
      async () => {
        const h = await read<Head>('/v1/audit/head');
        return h.witnesses.every((w) => w.outcome !== null) && h.check.verifiedSeq === h.seq ? h : undefined;
      },
      SLOW,
    );
    const issued = await call(TEAM, '/v1/judge-keys', { method: 'POST', body: JSON.stringify({ label: 'health panel', expiresInDays: 7 }) });
    expect(issued.status).toBe(201);
    judgeKey = ((await issued.json()) as { key: string }).key;
  }, 4 * SLOW);

  /** The coverage gaps, the chain and each witness as the gateway states them. */
  async function expectSharedParts(page: Page) {
    await page.locator('#coverage-gaps[data-uncovered="2"]').waitFor();
    expect(await page.locator('#coverage-gaps').textContent()).toBe(
      '2 of 3 orders lack an uploaded decision: 2 without any decision, 0 with one on its way, 0 whose decisions failed.',
    );
    expect(await page.locator('#gaps-heading ~ p a').getAttribute('href')).toBe('#/coverage?days=1');
    await page.locator('#chain-check[data-chain="ok"]').waitFor();
    expect(await page.locator('#chain-check').textContent()).toMatch(
      new RegExp(`^The chain holds up: verified up to seq ${head.seq} of ${head.seq}, checked \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC\\.`),
    );
    const [running, absent] = head.witnesses;
    expect([running.outcome, running.cosignedSize, absent.outcome]).toEqual(['cosigned', head.seq, 'unreachable']);
    const cells = (label: string) => page.locator(`table.witness-states tr[data-witness="${label}"] td`).allTextContents();
    const runningCells = await cells(running.witness);
    expect(runningCells.slice(0, 4)).toEqual([running.witness, head.seq, expect.stringMatching(/ UTC$/), 'cosigned']);
    expect(runningCells[4]).toMatch(/^cosigned, .* UTC$/);
    const absentCells = await cells(absent.witness);
    expect(absentCells.slice(0, 4)).toEqual([absent.witness, 'none yet', '—', 'not cosigned yet']);
    expect(absentCells[4]).toMatch(/^unreachable, .* UTC: ./);
  }

  /** The meter and the text of one budget window, against the limit the gateway states. */
  async function expectBudget(page: Page, id: string, limit: number) {
    const meter = page.locator(`meter#${id}`);
    await meter.waitFor();
    expect(Number(await meter.getAttribute('max'))).toBe(limit);
    expect(await page.locator(`[data-budget="${id}"]`).textContent()).toMatch(new RegExp(`^\\d+ of ${limit} used`));
    // The meter is named by its label, for a screen reader.
    expect(await page.getByRole('meter', { name: id === 'budget-uid' ? "This account's budget (its UID)" : /IP budget/ }).count()).toBe(1);
  }

  itInBrowser(
    'shows a team its budget use, coverage gaps, chain and witnesses, and its judge keys with how to issue one',
    async () => {
      const { weightBudget } = await read<{ weightBudget: { ip: { limit: number }; uid: { limit: number } } }>('/v1/status');
      const { page, close, problems, unexpected } = await open(url('/console'), TEAM);
      await page.goto(url('/console#/health'));
      await expectBudget(page, 'budget-uid', weightBudget.uid.limit);
      await expectBudget(page, 'budget-ip', weightBudget.ip.limit);
      await expectSharedParts(page);
      const keys = page.locator('ul.judge-keys li');
      await keys.first().waitFor();
      expect(await keys.allTextContents()).toEqual([expect.stringMatching(/^health panel, created .* UTC, expires .* UTC; id [0-9a-f-]{36}$/)]);
      const command = (await page.locator('#issue-judge-key').textContent())!;
      expect(command).toContain(`curl -X POST ${suite.harness.apiUrl}/v1/judge-keys`);
      expect(command).toContain('Bearer $AGENT_KEY');
      expect(await page.content()).not.toContain(TEAM);
      expect([problems, unexpected()]).toEqual([[], []]);
      await close();
    },
    2 * SLOW,
  );

  itInBrowser(
    'shows an admin the budget use, coverage gaps, chain and witnesses of the account it picked',
    async () => {
      const status = (await (await call(ADMIN, '/admin/accounts/default/status')).json()) as {
        weightBudget: { uid: { limit: number }; ip: { limit: number } };
      };
      const { page, close, problems, unexpected } = await open(url('/console'), ADMIN);
      await page.goto(url('/console#/health'));
      await expectBudget(page, 'budget-uid', status.weightBudget.uid.limit);
      await expectBudget(page, 'budget-ip', status.weightBudget.ip.limit);
      await expectSharedParts(page);
      expect(await page.locator('a[href="/admin/queues"]').count()).toBe(1);
      expect([problems, unexpected()]).toEqual([[], []]);
      await close();
    },
    2 * SLOW,
  );
  itInBrowser(
    'says coverage cannot be judged, not that all is covered, for an account whose orders were never read',
    async () => {
      const { simulator } = suite.harness;
      // Credentials the exchange does not know: every evidence sync fails, so no order is ever read.
      const account = { id: 'never-read', name: 'never read', apiKey: 'unknown-api-key', secret: 'unknown-secret-0123456789', passphrase: 'unknown-pass' };
      const created = await call(ADMIN, '/admin/accounts', {
        method: 'POST',
        body: JSON.stringify({ ...account, baseUrl: simulator.url, spotBaseUrl: simulator.spotUrl }),
      });
      expect(created.status).toBe(201);
      const { page, close, problems, unexpected } = await open(url('/console'), ADMIN);
      await page.locator('header select').selectOption('never-read');
      await page.goto(url('/console#/health'));
      await page.locator('#coverage-gaps[data-uncovered="0"]').waitFor();
      expect(await page.locator('#coverage-gaps').textContent()).toBe(
        "The exchange's orders have not been read for this account yet: coverage cannot be judged.",
      );
      expect(await page.locator('#gaps-heading ~ p').nth(1).textContent()).toMatch(
        /; the exchange's orders have not been read yet\. The orders and their decisions$/,
      );
      await page.goto(url('/console#/coverage?days=1'));
      await page.locator('#no-gaps').waitFor();
      expect(await page.locator('#no-gaps').textContent()).toBe("The exchange's orders have not been read for this account yet: coverage cannot be judged.");
      expect([problems, unexpected()]).toEqual([[], []]);
      await close();
    },
    2 * SLOW,
  );
  // Last: its new decision moves the chain's head.
  itInBrowser(
    'shows a judge coverage gaps, chain and witnesses, no budget, and tells it to ask the team for a checkpoint',
    async () => {
      const { page, close, problems, unexpected } = await open(url('/console'), judgeKey);
      await page.goto(url('/console#/health'));
      await page.locator('#counts-heading').waitFor();
      await expectSharedParts(page);
      expect([await page.locator('meter').count(), await page.locator('#judge-keys-heading').count()]).toEqual([0, 0]);
      // A decision no checkpoint covers yet: the judge's key cannot sign one, and is told whom to ask.
      const res = await call(TEAM, '/v1/ai-logs', {
        method: 'POST',
        body: '{"stage":"decision","model":"m-health","input":{},"output":{},"explanation":"later"}',
      });
      const { id } = (await res.json()) as { id: string };
      await page.goto(url(`/console#/logs/${id}`));
      await page.locator('#verdict[data-verdict="not-ready"]').waitFor();
      const proof = (await page.locator('.proof').textContent())!;
      expect(proof).toContain('Your key only reads and cannot sign one: if you need it sooner, ask the team to.');
      expect(proof).not.toContain('POST /v1/audit/checkpoints');
      expect([problems, unexpected(`409 /v1/ai-logs/${id}/proof`)]).toEqual([[], []]);
      await close();
    },
    2 * SLOW,
  );
});
