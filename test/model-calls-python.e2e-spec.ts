import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gatewaySuite } from './support/gateway-suite.js';

// The README's "Log with no code", run as written (its URL and key aside) with the Python `openai` package, against a
// gateway in sandbox mode: no provider configured, so the built-in stand-in model answers. The package is in the
// project's .venv, which .ci/run makes; without it this is a visible skip, except with CI=true.
const ROOT = new URL('..', import.meta.url).pathname;
const PYTHON = join(ROOT, '.venv/bin/python');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('### Log with no code'));
const SNIPPET = /```python\n([\s\S]*?)```/.exec(SECTION)![1];
const CURL = /```bash\n(curl [^\n]*)\n/.exec(SECTION)![1];

function openaiMissing(): string | undefined {
  if (!existsSync(PYTHON)) return `no ${PYTHON}: python3 -m venv .venv && .venv/bin/pip install openai (see .ci/run)`;
  if (spawnSync(PYTHON, ['-c', 'import openai'], { stdio: 'ignore' }).status !== 0) return `${PYTHON} has no openai: .venv/bin/pip install openai`;
  return undefined;
}
const missing = openaiMissing();
const itWithOpenai: typeof it = missing && process.env.CI !== 'true' ? it.skip : it;
if (missing && process.env.CI !== 'true') console.warn(`SKIPPED: the Python openai client through the gateway: ${missing}`);

describe('README: Log with no code (the openai package for Python)', () => {
  const suite = gatewaySuite({}, { worker: false });
  const withGateway = (text: string) => text.replaceAll('http://127.0.0.1:3000', suite.harness.apiUrl).replaceAll('agk_...', suite.harness.agentKey);
  // Asynchronous: the gateway runs in this process and must answer meanwhile.
  const python = async (code: string): Promise<string> => {
    if (missing) throw new Error(`${missing}; with CI=true this is a failure, not a skip`);
    return (await promisify(execFile)(PYTHON, ['-c', code], { encoding: 'utf8', timeout: 60_000 })).stdout;
  };
  const calls = async () => (await suite.db.query('SELECT * FROM model_calls ORDER BY seq')).rows;

  itWithOpenai('runs the example: the stand-in answers, and `curl` lists the recorded call', async () => {
    expect(await python(withGateway(SNIPPET))).toMatch(/^HOLD\. The stand-in model read 4 words of your prompt/);
    const listed = JSON.parse((await promisify(execFile)('sh', ['-c', withGateway(CURL)], { encoding: 'utf8' })).stdout);
    expect(listed).toMatchObject({ data: [{ path: '/chat/completions', requestedModel: 'gpt-4o-mini', answeredModel: 'stand-in-1' }], nextCursor: null });
  });

  itWithOpenai('records a streamed and a whole chat completion, with the usage the stream ends with', async () => {
    const out = await python(`
from openai import OpenAI
client = OpenAI(base_url="${suite.harness.apiUrl}/llm/openai/v1", api_key="${suite.harness.agentKey}", max_retries=0)
messages = [{"role": "user", "content": "Funding turned negative overnight. Long or short?"}]
whole = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
stream = client.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True, stream_options={"include_usage": True})
chunks = list(stream)
text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
assert text == whole.choices[0].message.content, (text, whole.choices[0].message.content)
print(whole.id, chunks[0].id, chunks[-1].usage.total_tokens, len(chunks))
`);
    const [wholeId, streamId, totalTokens, chunkCount] = out.trim().split(' ');
    expect(Number(chunkCount)).toBeGreaterThan(10);
    const [, whole, streamed] = await calls();
    expect(whole).toMatchObject({ response_id: wholeId, outcome: 'answered', http_status: 200, response_encoding: 'utf8' });
    expect(streamed).toMatchObject({ response_id: streamId, outcome: 'answered', total_tokens: Number(totalTokens), seq: '3', prev_hash: whole.hash });
    expect(streamed.response_body.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
