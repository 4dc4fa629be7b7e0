import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { noteVerifierKey } from '#libs/audit-chain';
import { generateKey } from '#libs/signed-note';
import { type RunningWitness, startWitness } from '../apps/witness/src/start-witness.js';
import { itInBrowser, launchChromium } from './support/browser.js';
import { closedPort } from './support/closed-port.js';
import { signInByKeyboard, watch } from './support/console-page.js';
import { forgeProof } from './support/forged-proof.js';
import { gatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-console-proof-tests';
const ORIGIN = 'console-proof.example';
const BIG = '123456789012345678901234567890';
const dir = mkdtempSync(join(tmpdir(), 'console-proof-'));

// The gateway's checkpoint key, made here so that the witness trusts it and a test can forge with it.
const { privateKey } = generateKeyPairSync('ed25519');
const SIGNING_KEY = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const GATEWAY_VKEY = noteVerifierKey(privateKey, ORIGIN);
/** Another key of the same name: what a judge might pin when the gateway signs with something else. */
const OTHER_VKEY = noteVerifierKey(generateKeyPairSync('ed25519').privateKey, ORIGIN);
/** A witness configured but never running: its cosignature is missing from every checkpoint. */
const ABSENT = generateKey('w2.example');

describe("the console's proof: every field shown, the witnesses' cosignatures, a pinned key (headless Chromium)", () => {
  const env: Record<string, string> = { AGENT_API_KEY: KEY, AUDIT_ORIGIN: ORIGIN, AUDIT_SIGNING_KEY: SIGNING_KEY };
  let witness: RunningWitness;
  let browser: Browser | undefined;
  const labels = { running: '', absent: '' };

  beforeAll(async () => {
    const { signerKey } = generateKey('w1.example');
    witness = await startWitness({ key: signerKey, logs: `${ORIGIN}/* ${GATEWAY_VKEY}`, stateFile: join(dir, 'w1.json'), port: 0 });
    env.AUDIT_WITNESSES = `${witness.url} ${witness.verifierKey};http://127.0.0.1:${await closedPort()} ${ABSENT.verifierKey}`;
  });
  const suite = gatewaySuite(env, { worker: false });
  beforeAll(async () => {
    const { data } = (await (await call('/v1/audit/witnesses')).json()) as { data: { witness: string; verifierKey: string }[] };
    expect(data.map((w) => w.verifierKey)).toEqual([witness.verifierKey, ABSENT.verifierKey]);
    [labels.running, labels.absent] = data.map((w) => w.witness);
  });
  afterAll(async () => {
    await browser?.close();
    await witness?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(url(path), { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
  /** Posts a log as raw JSON text (numbers stay as written) and signs a checkpoint that covers it; answers its id. */
  async function logged(explanation: string): Promise<string> {
    const body = `{"stage":"decision","model":"m-proof","input":{"big":${BIG}},"output":{"size":1.10,"side":"BUY"},"explanation":${JSON.stringify(explanation)}}`;
    const res = await call('/v1/ai-logs', { method: 'POST', body });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect((await call('/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);
    return id;
  }

  /** A signed-in page on the decision, watched from its first request. */
  async function decision(id: string) {
    browser ??= await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const watched = await watch(page);
    await page.goto(url('/console'));
    await signInByKeyboard(page, KEY);
    await page.goto(url(`/console#/logs/${id}`));
    return { page, close: () => context.close(), ...watched };
  }
  const verdictOf = async (page: Page, kind: string) => {
    await page.locator(`#verdict[data-verdict="${kind}"]`).waitFor();
    return page.locator('#verdict').textContent();
  };
  const witnessResult = (page: Page, label: string) => page.locator(`.witnesses [data-witness="${label}"]`).getAttribute('data-result');

  itInBrowser('names each witness: one cosignature checked with its key, one missing; a cosignature changed is bad, so Not verified', async () => {
    const id = await logged('witnessed');
    const { page, close, problems, unexpected } = await decision(id);
    expect(await verdictOf(page, 'verified')).toBe('Verified by the gateway and 1 witness');
    expect([await witnessResult(page, labels.running), await witnessResult(page, labels.absent)]).toEqual(['ok', 'missing']);
    expect(await page.locator(`[data-witness="${labels.running}"]`).textContent()).toMatch(/cosignature checked \(cosigned at \d{4}-\d\d-\d\dT/);
    expect(await page.locator('#key-source').textContent()).toBe(
      `Checked only against the key this gateway served, ${labelOf(GATEWAY_VKEY)}: pin the key you got out of band to check against it.`,
    );
    expect(await page.locator('.proof .trust').textContent()).toMatch(/served by the gateway it checks.*npm run audit:verify.*\/verify page/);

    // One character of the witness's signature changed on its way (its key ID, the line's first bytes, kept).
    await page.route(`**/v1/ai-logs/${id}/proof`, async (route) => {
      const answer = await route.fetch();
      const text = await answer.text();
      const at = text.indexOf('— w1.example ') + '— w1.example '.length + 30;
      await route.fulfill({ response: answer, body: text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1) });
    });
    await page.reload();
    expect(await verdictOf(page, 'refused')).toBe('Not verified');
    expect(await page.locator('.proof .reason').textContent()).toBe(
      `the cosignature of witness ${labels.running} does not verify: invalid signature for key ${labels.running}`,
    );
    expect(await witnessResult(page, labels.running)).toBe('bad');
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });

  itInBrowser('refuses a proof whose entry differs from the page in one field shown, and names the field', async () => {
    const id = await logged('why');
    const { page, close, problems, unexpected } = await decision(id);
    expect(await verdictOf(page, 'verified')).toBe('Verified by the gateway and 1 witness');

    // Whoever holds the gateway's key rewrites the explanation in the entry and signs the new tree: the signature
    // verifies, the witness's cosignature is missing, and the entry is not what the page shows.
    const rewrite = (entry: string) => entry.replace('"explanation":"why"', '"explanation":"why not"');
    let entry = '';
    await page.route(`**/v1/ai-logs/${id}/proof`, async (route) => {
      const answer = await route.fetch();
      const real = await answer.text();
      entry = rewrite(Buffer.from(/^extra (.*)$/m.exec(real)![1], 'base64').toString('utf8'));
      await route.fulfill({ response: answer, body: forgeProof(real, rewrite, { privateKey, vkey: GATEWAY_VKEY }) });
    });
    await page.reload();
    expect(await verdictOf(page, 'refused')).toBe('Not verified');
    const { chain } = (await (await call(`/v1/ai-logs/${id}`)).json()) as { chain: { hash: string; prevHash: string } };
    const forgedHash = createHash('sha256')
      .update(chain.prevHash + entry)
      .digest('hex');
    expect(await page.locator('.proof .reason').textContent()).toBe(
      'this page shows the decision otherwise than the proof\'s entry: explanation (the page shows "why", the entry holds "why not"); ' +
        `chain hash (the page shows ${chain.hash}, the entry holds ${forgedHash} after the previous hash shown)`,
    );
    expect(await witnessResult(page, labels.running)).toBe('missing');
    await page.unroute(`**/v1/ai-logs/${id}/proof`);

    // The page shows the log otherwise than the (real) proof: a number that lost its trailing zero.
    await page.route(`**/v1/ai-logs/${id}`, async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, body: (await answer.text()).replace('"size":1.10', '"size":1.1') });
    });
    await page.reload();
    expect(await verdictOf(page, 'refused')).toBe('Not verified');
    expect(await page.locator('.proof .reason').textContent()).toBe(
      "this page shows the decision otherwise than the proof's entry: output.size (the page shows 1.1, the entry holds 1.10)",
    );
    expect(await page.locator('.json').first().textContent()).toContain(`"big": ${BIG}`);
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });

  itInBrowser("lists the model calls behind a decision, and refuses a call's chain hash the proof does not pin", async () => {
    const answer = await call('/llm/openai/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Long or short?' }] }),
    });
    expect(answer.status).toBe(200);
    const callId = answer.headers.get('x-model-call-id')!;
    const res = await call('/v1/ai-logs', { method: 'POST', body: JSON.stringify({ stage: 'decision', modelCallIds: [callId] }) });
    const { id } = (await res.json()) as { id: string };
    expect((await call('/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);
    const { chain } = (await (await call(`/v1/model-calls/${callId}`)).json()) as { chain: { hash: string } };

    const { page, close, problems, unexpected } = await decision(id);
    expect(await verdictOf(page, 'verified')).toBe('Verified by the gateway and 1 witness');
    const row = page.locator('table.model-calls tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').first().textContent()).toBe(callId);
    expect(await row.locator('td').last().textContent()).toBe(chain.hash);

    // The gateway answers another record for the call than the one the log's hash pinned.
    const other = chain.hash.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    await page.route(`**/v1/model-calls/${callId}`, async (route) => {
      const real = await route.fetch();
      await route.fulfill({ response: real, body: (await real.text()).replace(chain.hash, other) });
    });
    await page.reload();
    expect(await verdictOf(page, 'refused')).toBe('Not verified');
    expect(await page.locator('.proof .reason').textContent()).toBe(
      `this page shows the decision otherwise than the proof's entry: modelCalls[0].hash (the page shows "${other}", the entry holds "${chain.hash}")`,
    );
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });

  itInBrowser("checks against a pinned key: another key pinned is Not verified, the gateway's is, and the pin outlives a reload", async () => {
    const id = await logged('pinned');
    const { page, close, problems, unexpected } = await decision(id);
    await verdictOf(page, 'verified');
    await page.locator('.pin summary').press('Enter');
    const pin = async (key: string) => {
      await page.locator('#pinned-key').fill(key);
      await page.locator('#pinned-key').press('Enter');
    };
    await pin('not a key');
    expect(await page.locator('#pinned-key-error').textContent()).toMatch(/^not a verifier key/);

    await pin(OTHER_VKEY);
    expect(await verdictOf(page, 'refused')).toBe('Not verified');
    expect(await page.locator('.proof .reason').textContent()).toBe(
      `the gateway serves the verifier key ${labelOf(GATEWAY_VKEY)}, not the one you pinned (${labelOf(OTHER_VKEY)}): its checkpoints are not signed by the key you trust`,
    );
    expect(await page.locator('#key-source').getAttribute('data-pinned')).toBe('true');

    await page.getByRole('button', { name: 'Unpin' }).press('Enter');
    await verdictOf(page, 'verified');
    expect(await page.locator('#key-source').getAttribute('data-pinned')).toBe('false');
    await pin(GATEWAY_VKEY);
    await page.locator('#key-source[data-pinned="true"]').waitFor();
    expect(await verdictOf(page, 'verified')).toBe('Verified by the gateway and 1 witness');
    expect(await page.locator('#key-source').textContent()).toBe(`Checked against the key you pinned, ${labelOf(GATEWAY_VKEY)}.`);

    // Kept in this browser for the account, so a reload checks against it again.
    await page.reload();
    await page.locator('#key-source[data-pinned="true"]').waitFor();
    expect(await verdictOf(page, 'verified')).toBe('Verified by the gateway and 1 witness');
    expect(await page.evaluate(() => (globalThis as any).localStorage.getItem('console.pinned-verifier-key.default'))).toBe(GATEWAY_VKEY);
    expect([problems, unexpected()]).toEqual([[], []]);
    await close();
  });
});

const labelOf = (vkey: string) => vkey.split('+').slice(0, 2).join('+');
