import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { gatewaySuite } from './support/gateway-suite.js';

// The README's Python agent without our client (plain HTTP, standard library only), run by python3 against a real
// gateway, as a team would paste it.
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const SECTION = README.slice(README.indexOf('**Any other language**'));
const SNIPPET = /```python\n([\s\S]*?)```/.exec(SECTION)![1];

describe('README: the Python agent', () => {
  const suite = gatewaySuite({});

  /** The snippet pointed at this test's gateway, its last lines (the example run) replaced by `tail` when given. */
  // Asynchronous: the gateway runs in this process and must answer meanwhile.
  const python = async (tail?: string): Promise<string> => {
    let code = SNIPPET.replace(/^GATEWAY = ".*"$/m, `GATEWAY = "${suite.harness!.apiUrl}"`).replace(
      /^KEY = "agk_\.\.\."/m,
      `KEY = "${suite.harness!.agentKey}"`,
    );
    if (tail) code = code.slice(0, code.indexOf('log_id = log_decision(')) + tail;
    return (await promisify(execFile)('python3', ['-c', code], { encoding: 'utf8', timeout: 120_000 })).stdout;
  };

  it('posts the example decision and waits until it reads uploaded', async () => {
    expect((await python()).trim()).toBe('uploaded');
    const { rows } = await suite.db.query(`SELECT count(*)::int AS n FROM ai_logs WHERE explanation = 'Momentum and funding both favour a long.'`);
    expect(rows[0].n).toBe(1);
  });

  it('does not retry what cannot succeed: a 400 and a 413 are raised after one request each', async () => {
    const posts = async (status: string) => {
      const text = await (await fetch(`${suite.harness!.apiUrl}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/v1/ai-logs"') && l.includes(`status_code="${status}"`));
      return line ? Number(line.split(' ')[1]) : 0;
    };
    const before = { 400: await posts('400'), 413: await posts('413') };
    const out = await python(`
for order_id, prompt in [("not-an-order-id", {}), (1, {"candles": "x" * 1_200_000})]:
    try:
        log_decision(order_id, "m", prompt, {}, "why")
    except ValueError as refused:
        print(refused.args[0]["statusCode"], refused.args[0]["code"])
`);
    expect(out.trim().split('\n')).toEqual(['400 VALIDATION_FAILED', '413 PAYLOAD_TOO_LARGE']);
    expect(await posts('400')).toBe(before[400] + 1);
    expect(await posts('413')).toBe(before[413] + 1);
  });
});
