import { Controller, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiEndpoint } from '#libs/api-docs';
import { RAW_OR_PROTOBUF_BODY } from '#libs/http';
import { TraceDecisions } from '#libs/ai-log';
import { OtlpIngestService } from '#libs/model-calls';
import { encodeExportResponse, OTLP_CONTENT_TYPES, partialSuccessOf } from '#libs/otlp';
import { OtlpApi } from '../controller-kinds.js';
import { OtlpExportResponseDto, OtlpExportTraceRequestDto } from './otlp.responses.js';

const EXAMPLE_SPAN = {
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId: 'eee19b7ec3c1b174',
  name: 'chat gpt-4o-mini',
  kind: 3,
  startTimeUnixNano: '1795863600000000000',
  endTimeUnixNano: '1795863600733000000',
  attributes: [
    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
    { key: 'gen_ai.provider.name', value: { stringValue: 'openai' } },
    { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
    { key: 'gen_ai.usage.input_tokens', value: { intValue: '41' } },
    { key: 'gen_ai.usage.output_tokens', value: { intValue: '12' } },
    { key: 'weex.order_id', value: { stringValue: '737185556881998184' } },
    { key: 'weex.explanation', value: { stringValue: 'Momentum and funding both favour a long.' } },
  ],
};

/**
 * OpenTelemetry traces in (OTLP/HTTP): an agent's tracer exports here with `OTEL_EXPORTER_OTLP_ENDPOINT=<gateway>/otlp`
 * and `OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer <agent key>`, and every span of a model call becomes a row of
 * GET /v1/model-calls, and a span with weex.order_id makes its trace's calls an AI log (TraceDecisions) (README: "Log
 * with no code"; the mapping: docs/model-calls.md). The body is taken as bytes
 * (binary protobuf or JSON, gzipped or not) and answered in its encoding.
 */
@Controller('otlp/v1')
@OtlpApi('Model calls', 'logs:write')
@ApiExtraModels(OtlpExportTraceRequestDto, OtlpExportResponseDto)
export class OtlpController {
  constructor(
    private readonly ingest: OtlpIngestService,
    private readonly decisions: TraceDecisions,
  ) {}

  @Post('traces')
  @RouteConfig(RAW_OR_PROTOBUF_BODY)
  @ApiEndpoint(
    'Export traces (OTLP/HTTP): model-call spans become model calls, decisions AI logs',
    'An ExportTraceServiceRequest in binary protobuf or JSON, optionally with `Content-Encoding: gzip`. Spans with GenAI attributes (OpenTelemetry, OpenInference or OpenLLMetry conventions) are recorded once per trace and span id; other spans are accepted and dropped. A span with `weex.order_id` (and optionally `weex.stage`, `weex.explanation`) turns the model calls of its trace into one AI log for that order. A span that cannot be recorded, or whose `weex.*` attributes cannot make a log, is counted in `partialSuccess`.',
  )
  // Two encodings of one message: ApiBody takes one schema, so the request body is given whole (ApiOperation merges it).
  @ApiOperation({
    summary: 'Export traces (OTLP/HTTP): model-call spans become model calls, decisions AI logs',
    requestBody: {
      required: true,
      content: {
        'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
        'application/json': {
          schema: { $ref: getSchemaPath(OtlpExportTraceRequestDto) },
          examples: { example: { summary: 'One chat span', value: { resourceSpans: [{ resource: {}, scopeSpans: [{ spans: [EXAMPLE_SPAN] }] }] } } },
        },
      },
    },
  })
  @ApiResponse({
    status: 200,
    description: 'Accepted: ExportTraceServiceResponse in the request encoding, with partialSuccess when spans were refused',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(OtlpExportResponseDto) },
        example: {
          partialSuccess: {
            rejectedSpans: '1',
            errorMessage: '1 spans refused: span eee19b7ec3c1b174 of trace 5b8e…: its endTimeUnixNano is before its startTimeUnixNano',
          },
        },
      },
      'application/x-protobuf': { schema: { type: 'string', format: 'binary' }, example: '(binary ExportTraceServiceResponse)' },
    },
  })
  async exportTraces(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Agent() agent: AgentIdentity): Promise<void> {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const contentEncoding = req.headers['content-encoding'];
    const exported = await this.ingest.exportTraces(
      { body, contentType: req.headers['content-type'], contentEncoding: Array.isArray(contentEncoding) ? contentEncoding.join(',') : contentEncoding },
      agent,
      reply,
    );
    // Then the spans that name an order turn their traces' model calls into AI logs.
    const refused = [...exported.refused, ...(await this.decisions.afterExport(agent, exported.decisions, exported.modelCallTraces))];
    void reply
      .status(200)
      .type(OTLP_CONTENT_TYPES[exported.encoding])
      .send(encodeExportResponse(exported.encoding, partialSuccessOf(refused)));
  }
}
