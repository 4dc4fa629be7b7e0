import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ErrorBody, ExchangeErrorDetails } from '#libs/http';
import type { FieldError } from '#libs/validation';

export class FieldErrorDto implements FieldError {
  @ApiProperty({ description: 'dotted, e.g. `input.prices.0`; empty for the body as a whole', example: 'limit' })
  path: string;

  @ApiProperty({ description: 'the rule the field broke', example: 'limit must be an integer from 1 to 100' })
  message: string;
}

export class ExchangeErrorDetailsDto implements ExchangeErrorDetails {
  @ApiProperty({ description: 'the spec operation the request ran, e.g. `cancelBatchOrders`' })
  operation: string;

  @ApiPropertyOptional({ description: "the exchange's code: a negative integer on v3 paths, a numeric string on v2 paths" })
  code?: string;

  @ApiProperty()
  message: string;

  @ApiPropertyOptional({ type: 'integer' })
  httpStatus?: number;
}

/** The one error shape of every endpoint (libs/http ErrorBody). */
@ApiSchema({ name: 'ErrorBody' })
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ type: 'integer', example: 400 })
  statusCode: number;

  @ApiProperty({ description: 'machine-readable, e.g. VALIDATION_FAILED, RATE_LIMITED', example: 'VALIDATION_FAILED' })
  code: string;

  @ApiProperty()
  message: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'one entry per failing field' })
  errors?: FieldError[];

  @ApiProperty({ description: 'also in the X-Request-Id header and the logs' })
  requestId: string;

  @ApiPropertyOptional({ description: 'only on 500s: the id under which the error was logged' })
  errorId?: string;

  /** The exchange's own code and message, when it refused the request. */

  @ApiPropertyOptional({ type: ExchangeErrorDetailsDto })
  exchange?: ExchangeErrorDetails;
}
