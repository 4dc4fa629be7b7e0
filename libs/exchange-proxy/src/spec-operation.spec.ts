import { readFileSync } from 'node:fs';
import { OPERATIONS } from '#libs/weex-client';
import { specOperation } from './spec-operation.js';

describe('weights are stated in OPERATIONS only', () => {
  it('the README table gives each operation the weights of OPERATIONS', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    // A cell may hold an escaped bar (`ids \| cids`).
    const cell = String.raw`(?:[^|]|\\\|)*`;
    const rows = [...readme.matchAll(new RegExp(String.raw`^\| \`(?:GET|POST) ${cell}\|${cell}\|${cell}\| (\d+) ${cell}\| (\d+) \/ (\d+) \|$`, 'gm'))];
    const stated = Object.fromEntries(rows.map(([, n, ip, uid]) => [Number(n), `${ip} / ${uid}`]));
    // The operations the API serves: every numbered one but the upload (1), which the worker makes.
    const served = Object.values(OPERATIONS as Record<string, { spec?: number; ipWeight: number; uidWeight: number }>).filter(({ spec }) => spec! > 1);
    const expected = Object.fromEntries(served.map(({ spec, ipWeight, uidWeight }) => [spec, `${ipWeight} / ${uidWeight}`]));
    expect(stated).toEqual(expected);
  });

  it('descriptions read the number and weights from the tables', () => {
    expect(specOperation('allPositions')).toBe('Spec operation 2 (allPositions; weight 10 IP / 15 UID).');
    expect(specOperation('serverTime')).toBe("Not in the spec's table (serverTime; weight 1 IP / 0 UID).");
  });

  it('says the rules of the parameters the 400s check, from the table', () => {
    expect(specOperation('openOrders')).toBe('Spec operation 4 (openOrders; weight 2 IP / 3 UID). limit 1-100, default 100; page from 0; endTime ≥ startTime.');
    expect(specOperation('userTrades')).toBe(
      'Spec operation 8 (userTrades; weight 5 IP / 5 UID). limit 1-100, default 100; endTime ≥ startTime, at most 7 days after it; ' +
        'the window within the last 365 days; endTime alone: from 7 days before it; startTime alone: to 7 days after it.',
    );
    expect(specOperation('cancelBatchOrders')).toBe(
      'Spec operation 11 (cancelBatchOrders; weight 5 IP / 10 UID). symbol required; exactly one of ids or cids.',
    );
  });
});
