import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { QueryInteger } from '#libs/validation';

export const DEFAULT_MODEL_CALL_PAGE = 50;
export const MAX_MODEL_CALL_PAGE = 200;

/** `GET /v1/model-calls` query: the account's calls, newest first, a page at a time. */
export class ListModelCallsQueryDto {
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_MODEL_CALL_PAGE)
  @JSONSchema({ description: `Calls per page; default ${DEFAULT_MODEL_CALL_PAGE}.` })
  limit?: number;

  @IsOptional()
  @IsString()
  @JSONSchema({ description: 'The nextCursor of the previous page.' })
  cursor?: string;
}
