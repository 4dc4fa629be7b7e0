import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// docs/architecture.md's "Who may import whom" is the map a new engineer reads: hold the code to it, both ways.
const ROOT = join(import.meta.dirname, '..');
const FRAMEWORK_FREE = ['libs/common', 'libs/audit-chain', 'libs/weight-budget', 'libs/weex-client'];

function documentedMap(): Map<string, string[]> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Who may import whom'));
  const rows = [...section.matchAll(/^\| `((?:apps|libs)\/[a-z-]+)` \|([^|]*)\|$/gm)];
  return new Map(
    rows.map(([, name, imports]) => [
      name,
      imports
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .sort(),
    ]),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.includes('generated/') && !file.includes('testing/'))
    .map((file) => join(ROOT, dir, file));
}

function importsOf(dir: string): { libs: string[]; packages: string[] } {
  const libs = new Set<string>();
  const packages = new Set<string>();
  for (const file of sourceFiles(dir)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const lib = /^#libs\/([a-z-]+)/.exec(spec)?.[1];
      if (lib && `libs/${lib}` !== dir) libs.add(lib);
      if (!spec.startsWith('.') && !spec.startsWith('#') && !spec.startsWith('node:')) packages.add(spec);
    }
  }
  return { libs: [...libs].sort(), packages: [...packages] };
}

describe('the import map of docs/architecture.md', () => {
  const documented = documentedMap();
  const actual = ['apps', 'libs'].flatMap((top) => readdirSync(join(ROOT, top)).map((name) => `${top}/${name}`));

  it('has a row for every app and lib, and no row for one that does not exist', () => {
    expect([...documented.keys()].sort()).toEqual(actual.sort());
  });

  it.each(actual)('%s imports exactly the libs its row names', (dir) => {
    expect(importsOf(dir).libs).toEqual(documented.get(dir));
  });

  it('has no cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, path: string[]): void => {
      if (done.has(name)) return;
      if (visiting.has(name)) throw new Error(`cycle: ${[...path, name].join(' -> ')}`);
      visiting.add(name);
      for (const lib of documented.get(name) ?? []) visit(`libs/${lib}`, [...path, name]);
      visiting.delete(name);
      done.add(name);
    };
    for (const name of documented.keys()) visit(name, []);
  });

  it.each(FRAMEWORK_FREE)('%s imports no NestJS, ioredis, BullMQ or Prisma', (dir) => {
    const framework = importsOf(dir).packages.filter((name) => /^(@nestjs\/|ioredis$|bullmq$|@prisma\/)/.test(name));
    expect(framework).toEqual([]);
  });
});
