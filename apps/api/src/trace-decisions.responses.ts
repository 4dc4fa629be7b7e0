import { ApiProperty } from '@nestjs/swagger';
import { DECISION_STATUSES, type DecisionStatus, type TraceDecisionView } from '#libs/ai-log';
import { ApiId, ApiInstant } from '#libs/api-docs';

/** The answer of GET /v1/trace-decisions, as OpenAPI schemas. */

export class TraceDecisionDto implements TraceDecisionView {
  @ApiProperty({ description: 'the W3C trace id (32 lowercase hex digits)', example: '5b8efff798038103d269b633813fc60c' })
  traceId: string;

  @ApiProperty({ description: 'the id of the span that carried weex.order_id', example: 'eee19b7ec3c1b174' })
  spanId: string;

  @ApiId({ description: 'weex.order_id as sent (a refused one as it came, cut to 1,000 characters)', example: '737185556881998184' })
  orderId: string;

  @ApiProperty({ description: 'weex.stage, or `decision`', example: 'decision' })
  stage: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'weex.explanation; null: filled from the last answer' })
  explanation: string | null;

  @ApiInstant()
  receivedAt: string;

  @ApiProperty({ enum: DECISION_STATUSES, description: '`waiting` for a call of its trace or for the trace to be quiet; `logged`; `refused`' })
  status: DecisionStatus;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'the AI log it became (GET /v1/ai-logs/{id})' })
  aiLogId: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'why it makes no log, naming the attribute or the call and the rule' })
  error: string | null;
}

export class TraceDecisionListDto {
  @ApiProperty({ type: [TraceDecisionDto], description: 'newest first' }) data: TraceDecisionDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'pass as `cursor` for the next page; null on the last' }) nextCursor: string | null;
}
