import { readFileSync } from 'node:fs';

// The README's agent section shows each client's first example exactly as the client's own README has it, and each
// client's tests run that example against a real gateway (clients/python/tests/test_log.py,
// test/clients-typescript.e2e-spec.ts): so the README's examples run too.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const firstBlock = (text: string, language: string) => new RegExp('```' + language + '\\n[\\s\\S]*?```').exec(text)?.[0];
const AGENT_SECTION = read('README.md').slice(read('README.md').indexOf('### What an agent does after each decision'));

describe("README: the agent section's client examples", () => {
  it.each([
    ['python', 'clients/python/README.md'],
    ['ts', 'clients/typescript/README.md'],
  ])('shows the first %s example of %s as it is there', (language, path) => {
    const example = firstBlock(read(path), language);
    expect(example).toBeDefined();
    expect(firstBlock(AGENT_SECTION, language)).toBe(example);
  });
});
