import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { QueryInteger } from '#libs/validation';

export const DECISION_STATUSES = ['waiting', 'logged', 'refused'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
export const DEFAULT_DECISION_PAGE = 50;
export const MAX_DECISION_PAGE = 200;

/** `GET /v1/trace-decisions` query: the account's decision spans, newest first, a page at a time. */
export class ListTraceDecisionsQueryDto {
  @IsOptional()
  @Matches(/^[0-9a-f]{32}$/, { message: 'traceId must be a trace id: 32 lowercase hex digits' })
  @JSONSchema({ description: "Only this trace's decisions." })
  traceId?: string;

  @IsOptional()
  @IsIn(DECISION_STATUSES, { message: `status must be one of ${DECISION_STATUSES.join(', ')}` })
  @JSONSchema({ description: '`waiting` for its calls or its trace to be quiet, `logged` (aiLogId), `refused` (error).' })
  status?: DecisionStatus;

  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_DECISION_PAGE)
  @JSONSchema({ description: `Decisions per page, newest first; default ${DEFAULT_DECISION_PAGE}.` })
  limit?: number;

  @IsOptional()
  @IsString()
  @JSONSchema({ description: 'The nextCursor of the previous page.' })
  cursor?: string;
}
