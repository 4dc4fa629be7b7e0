import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { gatewaySuite } from './support/gateway-suite.js';
import { spawnChild } from './support/child-processes.js';

const ROOT = new URL('..', import.meta.url).pathname;

/** The README's "Rehearse with your own agent" script, with the gateway, the key and the simulator's ports of this test. */
function readmeScript(values: { gateway: string; key: string; contract: string; spot: string }): string {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('### Rehearse with your own agent'));
  const script = /```js\n([\s\S]*?)```/.exec(section)![1];
  return script
    .replaceAll('http://127.0.0.1:3000', values.gateway)
    .replaceAll("'agk_...'", `'${values.key}'`)
    .replaceAll('http://127.0.0.1:3100', values.contract)
    .replaceAll('http://127.0.0.1:3101', values.spot);
}

function run(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnChild(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('README: Rehearse with your own agent', () => {
  const suite = gatewaySuite({});

  it('runs as written against the sandbox: the order placed with ccxt ends covered by its log', async () => {
    const { simulator, apiUrl, agentKey } = suite.harness;
    const script = readmeScript({ gateway: apiUrl, key: agentKey, contract: simulator.url, spot: simulator.spotUrl });
    // In the repository, so that `import ccxt from 'ccxt'` finds the devDependency.
    const file = `${ROOT}.readme-rehearse-${randomBytes(4).toString('hex')}.mjs`;
    writeFileSync(file, script);
    try {
      const { code, output } = await run(file);
      expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/^\d{18} closed covered\n\{.*total: \d+/s) });
      const orderId = output.split(' ')[0];
      expect(simulator.state.account('8000000001')!.data.orders.find((o) => String(o.orderId) === orderId)).toMatchObject({ status: 'FILLED', type: 'MARKET' });
    } finally {
      rmSync(file, { force: true });
    }
  }, 120_000);
});
