import {
  IsNotEmpty,
  IsOptional,
  IsString,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { readOrderId } from './order-id.js';

/** Explanations are limited to this many characters, counted as Unicode code points (an emoji counts once). */
export const MAX_EXPLANATION_CHARS = 1000;

/** The body an agent posts after each decision. */
export class CreateAiLogDto {
  @IsOptional()
  @IsOrderId()
  @JSONSchema({
    description: 'The exchange order this decision led to: a JSON integer of any size or a string of digits, 1 to 2^63-1. Kept digit-exact.',
    oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^[0-9]+$' }],
    example: '737185556881998184',
  })
  orderId?: unknown;

  @IsString() @IsNotEmpty()
  stage: string;

  @IsString() @IsNotEmpty()
  model: string;

  @IsJsonObject()
  @JSONSchema({ type: 'object' })
  input: Record<string, unknown>;

  @IsJsonObject()
  @JSONSchema({ type: 'object' })
  output: Record<string, unknown>;

  @IsString()
  @MaxCodePoints(MAX_EXPLANATION_CHARS)
  @JSONSchema({ maxLength: MAX_EXPLANATION_CHARS, description: 'At most 1000 characters, counted as Unicode code points (an emoji counts once).' })
  explanation: string;
}

function IsOrderId(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isOrderId',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => 'digits' in readOrderId(value),
        defaultMessage: (args?: ValidationArguments) => (readOrderId(args?.value) as { error: string }).error,
      },
    });
}

/**
 * A JSON object: what JSON.parse (or the lossless parser) makes of `{...}`. Not class-validator's IsObject, which also
 * passes a LosslessNumber (the parse of 1e400), so that a number would have been taken, and uploaded, as an input.
 */
function IsJsonObject(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isJsonObject',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => isJsonObject(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be a JSON object`,
      },
    });
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function MaxCodePoints(max: number): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxCodePoints',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || countCodePoints(value) <= max,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be at most ${max} characters (Unicode code points); got ${countCodePoints(String(args?.value))}`,
      },
    });
}

export function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
