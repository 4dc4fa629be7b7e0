import { IsIn, IsOptional, ValidateBy } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ValidationFailedException } from '#libs/validation';
import { DAY_MS, isCalendarDateOrNone } from '#libs/common';

/** Epoch milliseconds (digits), or a time Date reads (ISO-8601); undefined if neither. */
function parseAuditTime(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !isCalendarDateOrNone(value)) return undefined;
  const date = /^\d{1,15}$/.test(value) ? new Date(Number(value)) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const IsAuditTime = () =>
  ValidateBy({
    name: 'isAuditTime',
    validator: {
      validate: (value) => parseAuditTime(value) !== undefined,
      defaultMessage: (args) => `${args?.property} must be an ISO-8601 time or epoch milliseconds`,
    },
  });

/** `from` and `to` of the audit export and report. */
export class AuditWindowQueryDto {
  @IsOptional()
  @IsAuditTime()
  @JSONSchema({ type: 'string', description: 'ISO-8601 or epoch ms: logs received at or after' })
  from?: string;

  @IsOptional()
  @IsAuditTime()
  @JSONSchema({ type: 'string', description: 'ISO-8601 or epoch ms: logs received before' })
  to?: string;
}

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;

/** Query string of GET /v1/audit/export. */
export class AuditExportQueryDto extends AuditWindowQueryDto {
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
  @JSONSchema({ description: 'default jsonl' })
  format?: (typeof EXPORT_FORMATS)[number];
}

/** The export's window: from the chain's start to now, unless the query says otherwise. */
export const exportWindow = (query: AuditWindowQueryDto) => auditWindow(query, { defaultFrom: () => new Date(0), defaultTo: new Date(Date.now() + 1) });

/** The report's window: at most 90 days, the last 7 unless the query says otherwise. */
export const reportWindow = (query: AuditWindowQueryDto) =>
  auditWindow(query, { defaultFrom: (to) => new Date(to.getTime() - 7 * DAY_MS), defaultTo: new Date(), maxDays: 90 });

interface WindowRules {
  /** `from` when none is given, from the window's end. */
  defaultFrom: (to: Date) => Date;
  /** `to` when none is given. */
  defaultTo: Date;
  /** The longest window allowed, if any. */
  maxDays?: number;
}

/** The window a validated query names, with the defaults for what it leaves out; a 400 names `from` when it is not a window. */
function auditWindow(query: AuditWindowQueryDto, { defaultFrom, defaultTo, maxDays }: WindowRules): { from: Date; to: Date } {
  const to = query.to === undefined ? defaultTo : parseAuditTime(query.to)!;
  const from = query.from === undefined ? defaultFrom(to) : parseAuditTime(query.from)!;
  if (from > to) throw new ValidationFailedException([{ path: 'from', message: 'from must not be after to' }]);
  if (maxDays !== undefined && to.getTime() - from.getTime() > maxDays * DAY_MS) {
    throw new ValidationFailedException([{ path: 'from', message: `from must be at most ${maxDays} days before to` }]);
  }
  return { from, to };
}

/** A tree size as decimal digits: a uint64 would not survive a JS number. */
const TREE_SIZE = /^(0|[1-9][0-9]{0,19})$/;
const MAX_TREE_SIZE = 2n ** 63n - 1n;
const treeSizeMessage = (property: string) => `${property} must be a tree size: decimal digits without leading zeros, at most 2^63 - 1`;
const IsTreeSize = () =>
  ValidateBy({
    name: 'isTreeSize',
    validator: {
      validate: (value) => typeof value === 'string' && TREE_SIZE.test(value) && BigInt(value) <= MAX_TREE_SIZE,
      defaultMessage: (args) => treeSizeMessage(args?.property ?? 'size'),
    },
  });

/** Query string of GET /v1/audit/consistency. */
export class ConsistencyQueryDto {
  @IsTreeSize()
  @JSONSchema({ type: 'string', pattern: TREE_SIZE.source, description: 'the earlier tree size (at least 1)', example: '1000' })
  from!: string;

  @IsTreeSize()
  @JSONSchema({ type: 'string', pattern: TREE_SIZE.source, description: 'the later tree size (at least from)', example: '1842' })
  to!: string;
}

/** The two sizes of a validated query; a 400 names the rule they break together (RFC 9162: 0 < from <= to). */
export function consistencySizes(query: ConsistencyQueryDto): { from: bigint; to: bigint } {
  const from = BigInt(query.from);
  const to = BigInt(query.to);
  if (from === 0n) throw new ValidationFailedException([{ path: 'from', message: 'from must be at least 1: a proof from the empty tree means nothing' }]);
  if (from > to) throw new ValidationFailedException([{ path: 'from', message: 'from must not be greater than to' }]);
  return { from, to };
}
