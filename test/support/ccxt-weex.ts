import ccxt, { type weex } from 'ccxt';
import { SANDBOX_CREDENTIALS } from '../../apps/exchange-sim/src/index.js';

/**
 * ccxt's weex pointed at a simulator, as the README's "Rehearse with your own agent" does it: every host ccxt knows
 * (spot public and private, contract public and private) replaced by the simulator's. ccxt's own throttle is off
 * (a 24 h ticker costs it 4 s): the simulator keeps WEEX's weight budgets.
 */
export function ccxtWeex(sim: { url: string; spotUrl: string }, credentials = SANDBOX_CREDENTIALS): weex {
  const exchange = new ccxt.weex({ apiKey: credentials.apiKey, secret: credentials.secret, password: credentials.passphrase, enableRateLimit: false });
  exchange.urls.api = { public: sim.spotUrl, private: sim.spotUrl, contract: sim.url, contractPrivate: sim.url };
  return exchange;
}

/** ccxt's name of the implicit method for one entry of its `api` table, e.g. `contractPrivateGetCapiV3Order`. */
export function implicitMethod(api: string, method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return api + method.charAt(0).toUpperCase() + method.slice(1).toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** Every entry of ccxt's weex `api` table: which host (`api`), method and path. */
export function ccxtEndpoints(exchange: weex): Array<{ api: string; method: string; path: string }> {
  const table = (exchange as unknown as { api: Record<string, Record<string, Record<string, unknown>>> }).api;
  return Object.entries(table).flatMap(([api, methods]) =>
    Object.entries(methods).flatMap(([method, paths]) => Object.keys(paths).map((path) => ({ api, method: method.toUpperCase(), path: `/${path}` }))),
  );
}
