import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewaySuite } from './gateway-suite.js';
import { waitFor } from './wait-for.js';

/** An agent's view of a test gateway's audit trail: posts logs, waits for their uploads, saves exports and the key. */
export function auditTrail(suite: GatewaySuite) {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${suite.harness!.agentKey}`, 'content-type': 'application/json' } });
  const json = async (path: string, init?: RequestInit): Promise<any> => (await call(path, init)).json();
  return {
    dir,
    call,
    json,
    /** Posts logs one by one; answers their ids. */
    async post(logs: unknown[]): Promise<string[]> {
      const ids: string[] = [];
      for (const log of logs) {
        const res = await call('/v1/ai-logs', { method: 'POST', body: JSON.stringify(log) });
        if (res.status !== 202) throw new Error(`POST /v1/ai-logs answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { id: string }).id);
      }
      return ids;
    },
    /** Waits until `n` logs are uploaded (each with its receipt recorded). */
    async uploaded(n: number): Promise<void> {
      await waitFor(
        `${n} logs uploaded`,
        async () => {
          const { rows } = await suite.db.query("SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded'");
          return rows[0].n >= n ? true : undefined;
        },
        60_000,
      );
    },
    /** Saves an export (`query` without `?`) to a file of the test's directory; answers its path. */
    async exportTo(name: string, query = ''): Promise<string> {
      const res = await call(`/v1/audit/export${query ? `?${query}` : ''}`);
      if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
      const file = join(dir, name);
      writeFileSync(file, await res.text());
      return file;
    },
    /** Saves the public key that checks the signatures; answers its path. */
    async pubkey(): Promise<string> {
      const file = join(dir, 'audit.pub.pem');
      writeFileSync(file, (await json('/v1/audit/public-key')).pem);
      return file;
    },
  };
}
