/** Posts `n` small logs of stage `stage` to the API at `apiUrl`, in batches of 500, each answered 207. */
export async function postLogs(apiUrl: string, key: string, n: number, stage: string): Promise<void> {
  for (let from = 0; from < n; from += 500) {
    const logs = Array.from(
      { length: Math.min(500, n - from) },
      (_, i) => `{"stage":"${stage}","model":"m","input":{"n":${from + i}},"output":{},"explanation":"e"}`,
    );
    const res = await fetch(`${apiUrl}/v1/ai-logs/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: `{"logs":[${logs.join(',')}]}`,
    });
    if (res.status !== 207) throw new Error(`POST /v1/ai-logs/batch answered ${res.status}: ${await res.text()}`);
  }
}
