import {
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { readOrderId } from './order-id.js';

/** Explanations are limited to this many characters, counted as Unicode code points (an emoji counts once). */
export const MAX_EXPLANATION_CHARS = 1000;

/** The body an agent posts after each decision. */
export class CreateAiLogDto {
  @IsOptional()
  @IsOrderId()
  orderId?: unknown;

  @IsString() @IsNotEmpty()
  stage: string;

  @IsString() @IsNotEmpty()
  model: string;

  @IsObject({ message: 'input must be a JSON object' })
  input: Record<string, unknown>;

  @IsObject({ message: 'output must be a JSON object' })
  output: Record<string, unknown>;

  @IsString()
  @MaxCodePoints(MAX_EXPLANATION_CHARS)
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
