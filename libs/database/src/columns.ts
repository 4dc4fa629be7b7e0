/**
 * The column a model field is stored in. Every field's `@map` in prisma/schema.prisma is its name in snake_case
 * (columns.spec.ts holds the schema to that), so `Column<'accountId'>` is `'account_id'`. Column lists of raw SQL typed
 * with it against the generated models fail to compile when a field they name is renamed or removed; the check is in
 * the types alone, so nothing more runs per query.
 */
export type Column<Field extends string> = Field extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Column<Tail>}`
  : Field;

/** The columns of a model's table, e.g. `ColumnOf<AiLog>`. */
export type ColumnOf<Model> = Column<Extract<keyof Model, string>>;
