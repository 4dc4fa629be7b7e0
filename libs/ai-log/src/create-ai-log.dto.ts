import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  registerDecorator,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { findUnstorableText, holdsOnlyStorableText } from '#libs/common';
import { readOrderId } from './order-id.js';

/**
 * Explanations are limited to this many characters, counted as UTF-16 code units (an emoji outside the BMP counts
 * two). The spec says "1000 characters" without saying how; its types (Long, Integer, String) point to a Java backend,
 * whose String.length() counts UTF-16 units. Counting the same way here refuses at ingest, where the agent can still
 * fix the log, what the exchange would otherwise refuse at upload, where the log fails for good.
 */
export const MAX_EXPLANATION_CHARS = 1000;
const EXPLANATION_RULE =
  `At most ${MAX_EXPLANATION_CHARS} characters, counted as UTF-16 code units, as WEEX's Java backend counts them (String.length()): ` +
  'an emoji such as 😀 counts 2 (JavaScript: s.length; Python: len(s.encode("utf-16-le")) // 2). A longer one is refused here ' +
  'with 400 rather than failing at the exchange after the 202.';

/** Model calls one log may name. */
export const MAX_MODEL_CALLS = 20;

/**
 * A field the gateway fills from the log's model calls when it is left out (with modelCallIds), so it is checked only
 * when given or when there are no calls to fill it from. AiLogService fills it before the log is stored.
 */
const FilledFromCalls = (field: 'model' | 'input' | 'output' | 'explanation') =>
  ValidateIf((log: CreateAiLogDto) => log.modelCallIds == null || log[field] !== undefined);

/**
 * The body an agent posts after each decision. Without modelCallIds, model, input, output and explanation are
 * required; the schema lists only `stage` as required, since an `anyOf` of required lists makes generated clients
 * (openapi-typescript) type the body as unknown.
 */
export class CreateAiLogDto {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MODEL_CALLS)
  // A UUID in capitals is the same call (model-call-decisions.service.ts reads them lower-cased).
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: 'modelCallIds must name each call once' })
  @IsUUID('all', { each: true })
  @JSONSchema({
    description:
      `The model calls behind this decision, as the gateway recorded them (GET /v1/model-calls), 1 to ${MAX_MODEL_CALLS}; null is the same as leaving it out. ` +
      "They become part of the log's hash. model, input, output and explanation left out are filled from them: the models " +
      "that answered, each call's request, each answer's text, and the last answer's text fitted to 1,000 characters.",
    example: ['0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00'],
  })
  modelCallIds?: string[];

  @IsOptional()
  @IsOrderId()
  @JSONSchema({
    description: 'The exchange order this decision led to: a JSON integer of any size or a string of digits, 1 to 2^63-1, or null. Kept digit-exact.',
    oneOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', pattern: '^[0-9]+$' },
      { type: 'object', nullable: true, enum: [null] },
    ],
    example: '737185556881998184',
  })
  orderId?: unknown;

  @IsString()
  @IsNotEmpty()
  @IsStorableText()
  stage: string;

  @FilledFromCalls('model')
  @IsString()
  @IsNotEmpty()
  @IsStorableText()
  model: string;

  @FilledFromCalls('input')
  @IsJsonObject()
  @IsStorableText()
  @JSONSchema({ type: 'object', additionalProperties: true, description: 'The prompt or data given to the model: any JSON object, numbers kept as written.' })
  input: Record<string, unknown>;

  @FilledFromCalls('output')
  @IsJsonObject()
  @IsStorableText()
  @JSONSchema({ type: 'object', additionalProperties: true, description: "The model's output: any JSON object, numbers kept as written." })
  output: Record<string, unknown>;

  @FilledFromCalls('explanation')
  @IsString()
  @IsStorableText()
  @MaxUtf16Units(MAX_EXPLANATION_CHARS)
  // maxLength counts code points (JSON Schema), a bound the UTF-16 rule implies but looser: the description is the rule.
  @JSONSchema({ maxLength: MAX_EXPLANATION_CHARS, description: EXPLANATION_RULE })
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

/**
 * Strings, and in objects every key and string at any depth, that PostgreSQL can store: no U+0000, no lone UTF-16
 * surrogate. The message names the exact place (`input.a.b.2`).
 */
function IsStorableText(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStorableText',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => holdsOnlyStorableText(value),
        defaultMessage: (args?: ValidationArguments) => findUnstorableText(args?.value, args?.property ?? '')?.message ?? '',
      },
    });
}

/** String.length: UTF-16 code units, as Java counts them (see MAX_EXPLANATION_CHARS). */
function MaxUtf16Units(max: number): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxUtf16Units',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value.length <= max,
        defaultMessage: (args?: ValidationArguments) => {
          const text = String(args?.value);
          return `${args?.property} must be at most ${max} characters counted as UTF-16 code units, as WEEX (Java) counts them, an emoji counting 2; got ${text.length} (${countCodePoints(text)} code points)`;
        },
      },
    });
}

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
