import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiInstant } from '#libs/api-docs';
import type { Check, Readiness } from '#libs/admin';

/** The answers of /health, as OpenAPI schemas. */

type ExchangeReachability = Readiness['exchange'];

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

export class CheckDto implements Check {
  @ApiProperty() ok: boolean;
  @ApiPropertyOptional({ type: 'integer' }) latencyMs?: number;
  @ApiPropertyOptional({ description: 'why it did not pass' }) error?: string;
}

export class QueueCheckDto extends CheckDto {
  @ApiProperty({ enum: ['redis', 'postgres'] }) backend: string;
}

export class ReadinessChecksDto {
  @ApiProperty({ type: CheckDto }) database: CheckDto;
  @ApiProperty({ type: QueueCheckDto }) queue: QueueCheckDto;
}

export class ExchangeReachabilityDto implements ExchangeReachability {
  @ApiProperty() reachable: boolean;
  @ApiProperty({ description: "the exchange's base URL (the simulator in sandbox mode)" }) url: string;
  @ApiProperty({ type: 'integer' }) latencyMs: number;
  @ApiPropertyOptional({ type: 'integer', description: "the exchange's clock minus ours" }) offsetMs?: number;
  @ApiPropertyOptional() error?: string;
  @ApiInstant() checkedAt: string;
}

export class ReadinessDto implements Readiness {
  @ApiProperty({ enum: ['ready', 'unready'] }) status: Readiness['status'];
  /** The checks that decide readiness. */
  @ApiProperty({ type: ReadinessChecksDto }) checks: ReadinessChecksDto;
  @ApiProperty({ type: [String], description: 'the checks that did not pass' }) failed: string[];
  /** Reported, never decisive. */
  @ApiProperty({ type: ExchangeReachabilityDto }) exchange: ExchangeReachabilityDto;
}
