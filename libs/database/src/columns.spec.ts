import { readFileSync } from 'node:fs';

// Column<Field> (columns.ts) assumes that every scalar field's column is its name in snake_case: a field mapped to any
// other column would let typed raw SQL compile against a column that does not exist.
describe('prisma/schema.prisma', () => {
  const schema = readFileSync(new URL('../../../prisma/schema.prisma', import.meta.url), 'utf8');
  const enums = [...schema.matchAll(/^enum (\w+)/gm)].map((m) => m[1]);
  const scalarTypes = new Set(['String', 'Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'DateTime', 'Json', 'Bytes', ...enums]);
  const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

  it('stores every scalar field of every model in the column named by its name in snake_case', () => {
    const fields = [...schema.matchAll(/^model \w+ \{\n([^}]*)\}/gm)].flatMap((model) =>
      [...model[1].matchAll(/^ {2}(\w+)\s+(\w+)[?[\]]*(.*)$/gm)].filter(([, , type]) => scalarTypes.has(type)),
    );
    expect(fields.length).toBeGreaterThan(50);
    const wrong = fields
      .map(([, name, , rest]) => ({ name, column: /@map\("(\w+)"\)/.exec(rest)?.[1] ?? name }))
      .filter(({ name, column }) => column !== snakeCase(name));
    expect(wrong).toEqual([]);
  });
});
