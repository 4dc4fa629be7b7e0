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
    expect(specOperation('allPositions')).toBe('Spec operation 2 (allPositions; weight 10 IP / 15 UID)');
  });
});
