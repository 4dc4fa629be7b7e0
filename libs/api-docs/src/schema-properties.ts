import type { Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, type ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

type Options = Omit<ApiPropertyOptions, 'type'>;

/** A 64-bit ID as its decimal digits: always a string, never a JSON number (IDs exceed 2^53). */
export const ApiId = (options: Options = {}): PropertyDecorator =>
  ApiProperty({ type: 'string', description: '64-bit ID as its decimal digits', example: '737185556881998184', ...options } as ApiPropertyOptions);

/** A quantity, price, fee or amount as the exchange writes it (`"64250.5"`): decimal text, so no digit is lost. */
export const ApiDecimal = (options: Options = {}): PropertyDecorator =>
  ApiProperty({ type: 'string', description: 'decimal text', example: '64250.5', ...options } as ApiPropertyOptions);

/** A Unix time in milliseconds. */
export const ApiMillis = (options: Options = {}): PropertyDecorator =>
  ApiProperty({ type: 'integer', format: 'int64', description: 'Unix time in milliseconds', example: 1795380000000, ...options } as ApiPropertyOptions);

/** An instant as ISO 8601 (`2026-11-22T10:00:00.000Z`). */
export const ApiInstant = (options: Options = {}): PropertyDecorator => ApiProperty({ type: 'string', format: 'date-time', ...options } as ApiPropertyOptions);

/** A JSON object of any shape, as the agent sent it (numbers kept as written). */
export const ApiJsonObject = (options: Options = {}): PropertyDecorator =>
  ApiProperty({ type: 'object', additionalProperties: true, ...options } as ApiPropertyOptions);

/**
 * A nested object that may be null. OpenAPI 3.0's `nullable` only widens a `type` beside it, so a reference cannot be
 * nullable itself (`nullable` beside `allOf` still requires the object): null is an alternative of its own.
 */
export const ApiNullable =
  (type: Type, options: Options = {}): PropertyDecorator =>
  (target, key) => {
    ApiExtraModels(type)(target.constructor);
    ApiProperty({ anyOf: [{ $ref: getSchemaPath(type) }, { type: 'object', nullable: true, enum: [null] }], ...options } as ApiPropertyOptions)(target, key);
  };
