import { inspect } from 'node:util';
import { SANDBOX_CREDENTIALS } from '#libs/config';
import { type WeexClientOptions, WeexClient } from '#libs/weex-client';
import { defaultSimAccounts, type RunningSimulator, type SimStats, startSimulator } from '../../apps/exchange-sim/src/index.js';

export const ALLOWLISTED_UID = '8000000001';
export const NOT_ALLOWLISTED = { apiKey: 'sim-key-not-allowlisted', secret: 'sim-secret-not-allowlisted', passphrase: 'sim-pass-not-allowlisted' };

/** A simulator on loopback (both hosts), its control endpoints, and WeexClients pointed at it. */
export class WeexClientSim {
  /** Every ACCESS-SIGN any client sent, to prove that none leaks into an error. */
  readonly signatures = new Set<string>();
  private readonly originalFetch = globalThis.fetch;

  private constructor(readonly sim: RunningSimulator) {
    globalThis.fetch = (input, init) => {
      const sign = new Headers(init?.headers).get('access-sign');
      if (sign) this.signatures.add(sign);
      return this.originalFetch(input, init);
    };
  }

  static async start(): Promise<WeexClientSim> {
    return new WeexClientSim(await startSimulator({ port: 0, accounts: defaultSimAccounts() }));
  }

  async close(): Promise<void> {
    globalThis.fetch = this.originalFetch;
    await this.sim.close();
  }

  /** A client of the sandbox account with short timeouts and backoff, unless overridden. */
  client(options: Partial<WeexClientOptions> = {}): WeexClient {
    return new WeexClient({
      baseUrl: this.sim.url,
      spotBaseUrl: this.sim.spotUrl,
      credentials: SANDBOX_CREDENTIALS,
      timeoutMs: 3_000,
      retry: { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 400 },
      ...options,
    });
  }

  async control(method: 'PUT' | 'DELETE' | 'GET', path: string, body?: unknown): Promise<unknown> {
    const res = await this.originalFetch(`${this.sim.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  async reset(): Promise<void> {
    await this.control('DELETE', '/__sim/faults');
    await this.control('DELETE', '/__sim/budgets');
  }

  async stats(): Promise<SimStats> {
    return (await this.control('GET', '/__sim/stats')) as SimStats;
  }

  /** Fails when the error, its details or its cause show a secret, a passphrase or any signature sent. */
  expectNoSecrets(error: unknown): void {
    const texts = [JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), String(error)];
    const secrets = [SANDBOX_CREDENTIALS.secret, SANDBOX_CREDENTIALS.passphrase, NOT_ALLOWLISTED.secret, NOT_ALLOWLISTED.passphrase, 'wrong-secret'];
    for (const text of texts) {
      for (const secret of [...secrets, ...this.signatures]) expect(text).not.toContain(secret);
    }
  }
}
