import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, registerDecorator } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { AiLogStatus } from '#libs/database';
import { QueryInteger } from '#libs/validation';
import { isCalendarDateOrNone } from '#libs/common';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;
const STATUSES = Object.values(AiLogStatus);

/** An instant at the edge: ISO 8601 with a zone (`2026-11-21T19:00:00Z`), or Unix milliseconds (digits or a number). */
export function parseInstant(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) date = new Date(value);
  else if (typeof value === 'string' && /^\d{1,15}$/.test(value)) date = new Date(Number(value));
  else if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:?\d\d)$/i.test(value) && isCalendarDateOrNone(value)) date = new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

function IsInstant(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => parseInstant(value) !== undefined,
        defaultMessage: (args) => `${args?.property} must be an ISO 8601 time with a zone (e.g. 2026-11-21T19:00:00Z) or Unix milliseconds`,
      },
    });
}

function IsStatusList(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStatusList',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.split(',').every((s) => (STATUSES as string[]).includes(s)),
        defaultMessage: () => `status must be one or more of ${STATUSES.join(', ')}, comma-separated`,
      },
    });
}

const INSTANT = {
  oneOf: [
    { type: 'string' as const, format: 'date-time' },
    { type: 'integer' as const, minimum: 0 },
  ],
};

/** The window both the lists and a retry by filter take. `from` is inclusive, `to` exclusive. */
export class LogWindowDto {
  @IsOptional()
  @IsInstant()
  @JSONSchema({ ...INSTANT, description: 'Received at or after: ISO 8601 with a zone, or Unix ms.' })
  from?: string | number;

  @IsOptional()
  @IsInstant()
  @JSONSchema({ ...INSTANT, description: 'Received before: ISO 8601 with a zone, or Unix ms.' })
  to?: string | number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @JSONSchema({ description: 'A substring of the last error, in any case.' })
  error?: string;
}

/** `POST /admin/logs/retry`: the window, of one account or of all. */
export class LogFilterDto extends LogWindowDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) accountId?: string;
}

/** `GET /v1/ai-logs` query: one account's logs, newest first. */
export class AccountLogsQueryDto extends LogWindowDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) @JSONSchema({ description: 'The model, exactly.' }) model?: string;

  @IsOptional() @IsString() @MinLength(1) @MaxLength(200) @JSONSchema({ description: 'The stage, exactly.' }) stage?: string;

  @IsOptional()
  @Matches(/^\d{1,19}$/, { message: 'orderId must be an order ID: 1 to 19 digits' })
  @JSONSchema({ type: 'string', pattern: '^\\d{1,19}$', description: 'The order the log names (a string: 64-bit IDs lose digits as JSON numbers).' })
  orderId?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @JSONSchema({ description: 'A substring of the explanation, in any case.' })
  q?: string;

  @IsOptional()
  @IsStatusList()
  @JSONSchema({ type: 'string', description: `One or more of ${STATUSES.join(', ')}, comma-separated.` })
  status?: string;

  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  @JSONSchema({ description: `Logs per page; default ${DEFAULT_PAGE}.` })
  limit?: number;

  @IsOptional()
  @IsString()
  @JSONSchema({ description: 'The nextCursor of the previous page.' })
  cursor?: string;
}

/** `GET /admin/logs` query: the same, of one account or of all. */
export class ListLogsQueryDto extends AccountLogsQueryDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64) accountId?: string;
}
