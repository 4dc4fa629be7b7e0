/**
 * A minimal JSON-schema check of a value against an OpenAPI 3.0 schema: what a generated client relies on (types,
 * `nullable`, `required`, `properties`, `items`, `enum`, `$ref`, `allOf`/`anyOf`/`oneOf`). Stricter than the
 * specification in one way: an object may hold only the properties its schema lists, unless the schema allows more
 * (`additionalProperties`), so that a field the document does not describe is found too. Returns what is wrong, each
 * with its path; empty when the value fits.
 */
export function schemaProblems(value: unknown, schema: Schema, document: { components?: { schemas?: Record<string, Schema> } }, path = '$'): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    return target ? schemaProblems(value, target, document, path) : [`${path}: unresolved ${schema.$ref}`];
  }
  const check = (s: Schema) => schemaProblems(value, s, document, path);
  if (schema.anyOf)
    return schema.anyOf.some((s) => check(s).length === 0) ? [] : [`${path}: matches none of anyOf (${schema.anyOf.flatMap(check).join('; ')})`];
  if (schema.oneOf) return schema.oneOf.filter((s) => check(s).length === 0).length === 1 ? [] : [`${path}: does not match exactly one of oneOf`];
  const problems = (schema.allOf ?? []).flatMap(check);
  if (value === null) return schema.nullable || (!schema.type && !schema.allOf) ? problems : [...problems, `${path}: is null`];
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (schema.type && !isType(value, schema.type)) return [...problems, `${path}: ${JSON.stringify(value)} is not of type ${schema.type}`];
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => problems.push(...schemaProblems(item, schema.items!, document, `${path}[${i}]`)));
  if (isObject(value) && (schema.type === 'object' || schema.properties)) {
    for (const name of schema.required ?? []) if (!(name in value)) problems.push(`${path}.${name}: is required but missing`);
    for (const [name, item] of Object.entries(value)) {
      const property = schema.properties?.[name];
      if (property) problems.push(...schemaProblems(item, property, document, `${path}.${name}`));
      else if (typeof schema.additionalProperties === 'object')
        problems.push(...schemaProblems(item, schema.additionalProperties, document, `${path}.${name}`));
      else if (schema.additionalProperties !== true && !schema.allOf) problems.push(`${path}.${name}: is not in the schema`);
    }
  }
  return problems;
}

export interface Schema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return typeof value === type;
  }
}
