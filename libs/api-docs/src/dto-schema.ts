import type { SchemaObject } from '@nestjs/swagger';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';

const REFS = { refPointerPrefix: '#/components/schemas/' };

/** The JSON schema of a class-validator DTO, generated from the rules that validate it. */
export function dtoSchema(dto: abstract new (...args: never[]) => unknown): SchemaObject {
  return withoutBuiltinRefs(targetConstructorToSchema(dto, REFS) as SchemaObject);
}

/** The schemas of every class-validator DTO, by class name. */
export function dtoSchemas(): Record<string, SchemaObject> {
  const schemas = validationMetadatasToSchemas(REFS) as Record<string, SchemaObject>;
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, withoutBuiltinRefs(schema)]));
}

/**
 * A property validated by a custom decorator is described by its TypeScript type, which reaches the generator as a
 * reference to `Object` or `Array`: drop the former (any JSON value, as the property's own description says) and
 * turn the latter into `type: array`.
 */
function withoutBuiltinRefs(schema: SchemaObject): SchemaObject {
  for (const property of Object.values(schema.properties ?? {}) as Array<Record<string, unknown>>) {
    if (property.$ref === '#/components/schemas/Object') delete property.$ref;
    if (property.$ref === '#/components/schemas/Array') {
      delete property.$ref;
      property.type ??= 'array';
    }
  }
  return schema;
}
