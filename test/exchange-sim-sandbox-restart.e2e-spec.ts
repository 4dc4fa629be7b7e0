import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { weex } from 'ccxt';
import { ccxtWeex } from './support/ccxt-weex.js';
import { waitFor } from './support/wait-for.js';
import { spawnChild } from './support/child-processes.js';

// `npm start` as a user runs it (the built standalone process, see npm-start.e2e-spec.ts), with the evidence sync
// every second so that the test need not wait a minute for it.
const MAIN = new URL('../dist/apps/standalone/src/main.js', import.meta.url).pathname;
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const json = (res: Response): Promise<any> => res.json();

interface Started {
  child: ChildProcess;
  url: string;
  key: string;
  exchange: weex;
}

async function start(dataDir: string): Promise<Started> {
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', SIM_PORT: '0', SIM_SPOT_PORT: '0', EVIDENCE_SYNC_INTERVAL_MS: '1000' };
  const child = spawnChild(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // Not a terminal: the started line (JSON) says where it listens and which file holds the sandbox key.
  const started = await waitFor(
    'the started line',
    async () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line))
        .find((entry) => /^AI-log gateway listening on /.test(entry.msg)),
    60_000,
  );
  const sim = started.exchangeUrl;
  return {
    child,
    url: started.url,
    key: readFileSync(started.agentKeyFile, 'utf8').trim(),
    // Only contract paths are called here, through ccxt's implicit API: no spot host needed.
    exchange: ccxtWeex({ url: sim, spotUrl: sim }),
  };
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  if (started.child.exitCode === null) await new Promise((resolve) => started.child.once('exit', resolve));
}

/** What the simulator serves for the account: the orders and fills the test placed, every position, the history. */
async function exchangeState(ex: weex, ids: string[]) {
  const orders = await Promise.all(ids.map((orderId) => ex.contractPrivateGetCapiV3Order({ orderId })));
  const fills = await Promise.all(ids.map((orderId) => ex.contractPrivateGetCapiV3UserTrades({ orderId })));
  const positions = await ex.contractPrivateGetCapiV3AccountPositionAllPosition();
  const history = await ex.contractPrivateGetCapiV3OrderHistory({ limit: 1000 });
  const open = await ex.contractPrivateGetCapiV3OpenOrders();
  return { orders, fills, positions, history, open };
}

describe('the sandbox across a restart of npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-sandbox-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('ends the README quick start covered, and serves the same orders, fills and positions after a restart', async () => {
    const first = await start(dataDir);
    const auth = (s: Started) => ({ authorization: `Bearer ${s.key}`, 'content-type': 'application/json' });
    const get = async (s: Started, path: string) => json(await fetch(`${s.url}${path}`, { headers: auth(s) }));
    let before: Awaited<ReturnType<typeof exchangeState>>;
    let ids: string[];
    let coverageBefore: any;
    const window = `from=${Date.now() - 89 * 86_400_000}&to=${Date.now() + 3_600_000}`;
    try {
      // The quick start as the README writes it: its log body, then its evidence call.
      const body = /-d '(\{"orderId":737185556881998184[\s\S]*?\})'/.exec(README)![1].replace(/\n\s*/g, '');
      const evidencePath = /curl -s http:\/\/127\.0\.0\.1:3000(\/v1\/orders\/737185556881998184\/evidence)/.exec(README)![1];
      const posted = await fetch(`${first.url}/v1/ai-logs`, { method: 'POST', headers: auth(first), body });
      expect(posted.status).toBe(202);
      const logId = (await json(posted)).id;
      await waitFor('the quick start log to upload', async () => ((await get(first, `/v1/ai-logs/${logId}`)).status === 'uploaded' ? true : undefined));
      expect(await get(first, evidencePath)).toMatchObject({ orderId: '737185556881998184', coverage: 'covered', order: { status: 'FILLED' } });

      // An agent trades: a market order that fills, a limit order far below the price that waits.
      const ex = first.exchange;
      const market = (await ex.contractPrivatePostCapiV3Order({ symbol: 'BTCUSDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: '0.02' })) as {
        orderId: string;
      };
      const limit = (await ex.contractPrivatePostCapiV3Order({
        symbol: 'ETHUSDT',
        side: 'BUY',
        positionSide: 'LONG',
        type: 'LIMIT',
        quantity: '0.1',
        price: '100',
        timeInForce: 'GTC',
      })) as { orderId: string };
      ids = [market.orderId, limit.orderId];
      await waitFor('the sync to store the market order and its fill', async () => {
        const evidence = await get(first, `/v1/orders/${market.orderId}/evidence`);
        return evidence.fills?.length === 1 ? true : undefined;
      });
      before = await exchangeState(ex, ids);
      coverageBefore = (await get(first, `/v1/compliance/coverage?${window}`)).orders;
    } finally {
      await stop(first);
    }
    const restartedAt = Date.now();
    const second = await start(dataDir);
    try {
      expect(await exchangeState(second.exchange, ids)).toEqual(before);
      expect(existsSync(join(dataDir, 'sandbox-exchange.json'))).toBe(true);
      // A sync after the restart finds nothing new: the simulator's history is the one the gateway synced.
      await waitFor('a sync after the restart', async () => {
        const sync = await get(second, '/v1/evidence/sync');
        return sync.streams.every((s: { lastSuccessAt: string | null }) => s.lastSuccessAt !== null && Date.parse(s.lastSuccessAt) > restartedAt)
          ? true
          : undefined;
      });
      expect((await get(second, `/v1/compliance/coverage?${window}`)).orders).toEqual(coverageBefore);
      expect(await get(second, `/v1/orders/${ids[0]}/evidence`)).toMatchObject({ order: { orderId: ids[0], status: 'FILLED' }, fills: [{ orderId: ids[0] }] });
    } finally {
      await stop(second);
    }
  }, 240_000);
});
