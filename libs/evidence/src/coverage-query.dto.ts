import { IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { type FieldError, ValidationFailedException } from '#libs/validation';
import { DAY_MS } from './time-windows.js';
import { isCalendarDateOrNone } from '#libs/common';

/** The longest window a coverage query may span, and the window when none is given. */
export const MAX_COVERAGE_DAYS = 90;
export const DEFAULT_COVERAGE_DAYS = 7;
export const MAX_LIST_LIMIT = 1000;
export const DEFAULT_LIST_LIMIT = 100;

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const LATEST_MS = 8.64e15;

/** Unix ms from epoch milliseconds or an ISO-8601 date or time (UTC when it carries no offset); undefined if neither. */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d{1,16}$/.test(value)) return Number(value) <= LATEST_MS ? Number(value) : undefined;
  if (!ISO_8601.test(value) || !isCalendarDateOrNone(value)) return undefined;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) && value.length > 10;
  const ms = Date.parse(value.length > 10 && !hasZone ? `${value.replace(' ', 'T')}Z` : value.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : undefined;
}

const IsInstant = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isInstant',
      validator: {
        validate: (value) => parseInstant(value) !== undefined,
        defaultMessage: (args) => `${args?.property} must be an ISO-8601 time (2026-11-21T19:00:00Z) or Unix milliseconds`,
      },
    },
    options,
  );

const IsLimit = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isLimit',
      validator: {
        validate: (value) => typeof value === 'string' && /^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIST_LIMIT,
        defaultMessage: () => `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`,
      },
    },
    options,
  );

/** Query string of GET /v1/compliance/coverage. */
export class CoverageQueryDto {
  @IsOptional()
  @IsInstant()
  @JSONSchema({ description: `ISO-8601 or Unix ms; default ${DEFAULT_COVERAGE_DAYS} days before to, at most ${MAX_COVERAGE_DAYS}` })
  from?: string;

  @IsOptional()
  @IsInstant()
  @JSONSchema({ description: 'ISO-8601 or Unix ms; default now' })
  to?: string;

  @IsOptional()
  @IsLimit()
  @JSONSchema({
    pattern: '^[0-9]{1,4}$',
    description: `the longest list of uncovered orders and of unmatched logs: 1 to ${MAX_LIST_LIMIT}, default ${DEFAULT_LIST_LIMIT}`,
  })
  limit?: string;
}

export interface CoverageWindow {
  from: Date;
  to: Date;
  limit: number;
}

/**
 * The window of a validated coverage query: `to` defaults to now, `from` to `DEFAULT_COVERAGE_DAYS` before `to`; `from`
 * must not be after `to`, and the window may span at most `MAX_COVERAGE_DAYS`. A bad window is a 400 naming `from`.
 */
export function coverageWindow(dto: CoverageQueryDto, now = Date.now()): CoverageWindow {
  const to = dto.to === undefined ? now : parseInstant(dto.to)!;
  const from = dto.from === undefined ? to - DEFAULT_COVERAGE_DAYS * DAY_MS : parseInstant(dto.from)!;
  const errors: FieldError[] = [];
  if (from > to) errors.push({ path: 'from', message: 'from must not be after to' });
  else if (to - from > MAX_COVERAGE_DAYS * DAY_MS) errors.push({ path: 'from', message: `from must be at most ${MAX_COVERAGE_DAYS} days before to` });
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return { from: new Date(from), to: new Date(to), limit: dto.limit === undefined ? DEFAULT_LIST_LIMIT : Number(dto.limit) };
}
