import type { Harness } from './gateway-harness.js';

/** A valid AI log body; `n` makes each one distinct. */
export const aiLogBody = (n = 0) => `{"stage":"decision","model":"m","input":{"n":${n}},"output":{"b":2},"explanation":"why"}`;

/** Posts one log with the agent key and returns its id (expects the 202). */
export async function postLog(h: Harness, key: string, n = 0): Promise<string> {
  const res = await fetch(`${h.apiUrl}/v1/ai-logs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: aiLogBody(n),
  });
  if (res.status !== 202) throw new Error(`POST /v1/ai-logs answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** `GET /v1/ai-logs/:id` as the agent sees it. */
export async function viewLog(h: Harness, key: string, id: string): Promise<any> {
  return (await fetch(`${h.apiUrl}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${key}` } })).json();
}
