import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OTLP's messages in their JSON encoding, as OpenAPI schemas (the binary protobuf encoding carries the same). */

export class OtlpPartialSuccessDto {
  @ApiProperty({ description: 'int64 as a decimal string: the spans refused, which the exporter must not send again', example: '1' })
  rejectedSpans: string;

  @ApiProperty({ description: 'why, naming each span (up to five) by its ids and the rule it broke' })
  errorMessage: string;
}

export class OtlpExportResponseDto {
  @ApiPropertyOptional({ type: OtlpPartialSuccessDto, description: 'absent when every span was accepted' })
  partialSuccess?: OtlpPartialSuccessDto;
}

export class OtlpStatusDto {
  @ApiProperty({ type: 'integer', description: "gRPC's code for the HTTP status (3 INVALID_ARGUMENT, 16 UNAUTHENTICATED, 8 RESOURCE_EXHAUSTED, ...)" })
  code: number;

  @ApiProperty({ description: "the gateway's error code, a colon, and the rule the request broke" })
  message: string;
}

/** The request body's JSON encoding, loosely: the OTLP specification defines it, and unknown fields are ignored. */
export class OtlpExportTraceRequestDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'ResourceSpans: { resource: { attributes }, scopeSpans: [{ scope, spans: [Span] }] }, as opentelemetry-proto defines them',
  })
  resourceSpans: object[];
}
