import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Accepted, AiLogView, AttemptRecord, AttemptView, BatchItemResult } from '#libs/ai-log';
import type { UploadReceiptView } from '#libs/evidence';
import { ApiId, ApiInstant, ApiJsonObject, ApiNullable, FieldErrorDto } from '#libs/api-docs';
import { AiLogStatus } from '#libs/database';
import type { FieldError } from '#libs/validation';

/** The answers of /v1/ai-logs (and, extended, of /admin/logs): what the handlers return, as OpenAPI schemas. */

const OUTCOMES = Object.keys({ uploaded: 1, retryable: 1, permanent: 1, uncertain: 1 } satisfies Record<AttemptRecord['outcome'], 1>);
/** An upload attempt's outcome; `uncertain`: sent, but no answer came back. */
export const OUTCOME = { enum: OUTCOMES };
/** A log's status; `retrying`: a transient failure, another attempt is scheduled. */
export const STATUS = { enum: Object.values(AiLogStatus) };
/** Who the uploads go to, or who answered: the sandbox's simulator or WEEX. */
export const TARGET = { enum: ['simulator', 'exchange'] };
const UUID = { format: 'uuid', example: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00' };

export class AcceptedDto implements Accepted {
  @ApiProperty({ description: "the log's id (UUIDv7)", ...UUID })
  id: string;

  @ApiProperty({ enum: ['queued'] })
  status: 'queued';

  @ApiInstant({ description: 'when the log was committed' })
  receivedAt: string;
}

export class BatchItemResultDto {
  @ApiProperty({ type: 'integer', description: "the item's place in `logs`" })
  index: number;

  @ApiPropertyOptional({ description: 'present when the item was committed', ...UUID })
  id?: string;

  @ApiProperty({ enum: ['queued', 'rejected'] })
  status: 'queued' | 'rejected';

  @ApiInstant({ required: false, description: 'present when the item was committed' })
  receivedAt?: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'present when the item was rejected: its failing fields, prefixed `logs.<index>.`' })
  errors?: FieldError[];
}

export class BatchResultDto {
  @ApiProperty({ type: [BatchItemResultDto], description: 'one per item, in order' })
  results: BatchItemResult[];
}

/** What the exchange answered to one upload attempt (for a log's evidence: its `uploaded` attempt). */
export class UploadReceiptDto implements UploadReceiptView {
  @ApiInstant({ description: 'when the request was sent' })
  at: string;

  @ApiInstant()
  finishedAt: string;

  @ApiProperty({ ...TARGET, description: 'who answered' })
  target: string;

  @ApiProperty({ type: 'integer', nullable: true })
  httpStatus: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: "the exchange's code" })
  exchangeCode: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  exchangeMessage: string | null;
}

export class AttemptDto extends UploadReceiptDto implements AttemptView {
  @ApiProperty({ type: 'integer' })
  latencyMs: number;

  @ApiProperty(OUTCOME)
  outcome: string;
}

export class ChainLinkDto {
  @ApiId({ description: "the log's place in its account's audit chain" })
  seq: string;

  @ApiProperty({ description: 'SHA-256 hex' })
  prevHash: string;

  @ApiProperty({ description: 'SHA-256 hex' })
  hash: string;
}

export class AiLogDto implements AiLogView {
  @ApiProperty(UUID)
  id: string;

  @ApiProperty(STATUS)
  status: string;

  @ApiProperty({ ...TARGET, description: 'who the uploads go to' })
  target: string;

  @ApiId({ nullable: true })
  orderId: string | null;

  @ApiProperty()
  stage: string;

  @ApiProperty()
  model: string;

  @ApiJsonObject({ description: 'as accepted, every number with the digits it was sent with' })
  input: unknown;

  @ApiJsonObject({ description: 'as accepted, every number with the digits it was sent with' })
  output: unknown;

  @ApiProperty()
  explanation: string;

  @ApiProperty({ type: [String], format: 'uuid', description: 'the model calls the log names (GET /v1/model-calls/{id}), in its order; [] for none' })
  modelCallIds: string[];

  @ApiInstant()
  receivedAt: string;

  @ApiInstant({ nullable: true })
  uploadedAt: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'why the last attempt failed' })
  lastError: string | null;

  @ApiNullable(ChainLinkDto, { description: 'null for a log accepted before the chain existed' })
  chain: ChainLinkDto | null;

  @ApiProperty({ type: [AttemptDto], description: 'every upload attempt, oldest first' })
  attempts: AttemptDto[];
}
