import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { HttpException, Injectable } from '@nestjs/common';
import { type AgentIdentity, AgentRateLimiter, rateLimited, type ReplyHeaders } from '#libs/accounts';
import { GatewayConfig } from '#libs/config';
import {
  answerEncoding,
  decodeJsonTraces,
  decodeProtobufTraces,
  isModelCallSpan,
  type OtlpEncoding,
  OtlpRequestError,
  type OtlpSpan,
  type RefusedSpan,
  type SpanDecision,
  spanDecision,
} from '#libs/otlp';
import { ModelCallsRepository, type NewModelCall } from './model-calls.repository.js';
import { spanModelCall } from './span-model-call.js';

const inflate = promisify(gunzip);

/** An export as it came: the body's bytes and the two headers that say how to read them. */
export interface OtlpExport {
  body: Buffer;
  contentType: string | undefined;
  contentEncoding: string | undefined;
}

/** What an export did: the answer's encoding, the spans refused (each a sentence), and what the decisions need. */
export interface OtlpExportResult {
  encoding: OtlpEncoding;
  refused: RefusedSpan[];
  stored: number;
  duplicates: number;
  /** The spans that name an order (weex.order_id), for the service that turns their traces' calls into AI logs. */
  decisions: SpanDecision[];
  /** The traces of the model-call spans recorded (or already recorded): a decision of theirs may wait for them. */
  modelCallTraces: string[];
}

/**
 * OTLP/HTTP trace export (POST /otlp/v1/traces): the spans that record a model call (docs/model-calls.md) are
 * committed to `model_calls`, each once per (trace id, span id) of the account; other spans are accepted and dropped.
 * A request that cannot be read, or breaks a limit, is refused whole (400, 413, 415); a model-call span that cannot be
 * recorded is refused alone, in the answer's partial_success.
 */
@Injectable()
export class OtlpIngestService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly calls: ModelCallsRepository,
    private readonly limiter: AgentRateLimiter,
  ) {}

  async exportTraces(request: OtlpExport, agent: AgentIdentity, reply: ReplyHeaders): Promise<OtlpExportResult> {
    const encoding = answerEncoding(request.contentType);
    const spans = await this.decode(request, encoding);
    const limit = this.config.otlpAttributeValueLimitBytes;
    const records: NewModelCall[] = [];
    const decisions: SpanDecision[] = [];
    const refused: RefusedSpan[] = [];
    const refuse = ({ traceId, spanId }: OtlpSpan, reason: string) =>
      refused.push({ traceId, spanId, message: `span ${spanId || '(no id)'} of trace ${traceId || '(no id)'}: ${reason}` });
    for (const span of spans) {
      const decision = spanDecision(span, limit);
      if (decision && 'reason' in decision) refuse(span, decision.reason);
      else if (decision) decisions.push(decision);
      if (!isModelCallSpan(span.attributes)) continue;
      const record = spanModelCall(span, agent, limit);
      if ('reason' in record) refuse(span, record.reason);
      else records.push(record);
    }
    await this.charge(agent, records.length + decisions.length, reply);
    const { stored, duplicates } = records.length > 0 ? await this.calls.appendSpans(agent.accountId, records) : { stored: 0, duplicates: 0 };
    return { encoding, refused, stored, duplicates, decisions, modelCallTraces: [...new Set(records.map((r) => r.traceId!))] };
  }

  private async decode(request: OtlpExport, encoding: OtlpEncoding): Promise<OtlpSpan[]> {
    try {
      const bytes = await this.inflated(request);
      const limits = { maxSpans: this.config.otlpMaxSpansPerRequest, maxValues: this.config.otlpMaxValuesPerRequest };
      return encoding === 'protobuf' ? decodeProtobufTraces(bytes, limits) : decodeJsonTraces(bytes, limits);
    } catch (error) {
      if (error instanceof OtlpRequestError) throw new HttpException({ code: error.code, message: error.message }, error.status);
      throw error;
    }
  }

  /**
   * The body, gunzipped when Content-Encoding says gzip. zlib stops at OTLP_DECOMPRESSED_LIMIT_BYTES of output, so a
   * small body that would inflate to gigabytes (a gzip bomb) costs at most that much memory and time.
   */
  private async inflated({ body, contentEncoding }: OtlpExport): Promise<Buffer> {
    const limit = this.config.otlpDecompressedLimitBytes;
    const encoding = contentEncoding?.trim().toLowerCase() ?? 'identity';
    if (encoding === 'identity' || encoding === '') return body;
    if (encoding !== 'gzip')
      throw new OtlpRequestError('OTLP_UNSUPPORTED_ENCODING', `Content-Encoding must be gzip or none, not ${JSON.stringify(contentEncoding)}`);
    try {
      return await inflate(body, { maxOutputLength: limit });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new OtlpRequestError(
          'OTLP_BODY_TOO_LARGE',
          `the body inflates to more than OTLP_DECOMPRESSED_LIMIT_BYTES (${limit} bytes): export smaller batches`,
        );
      }
      throw new OtlpRequestError('OTLP_UNDECODABLE', `the body is not valid gzip (${(error as Error).message})`);
    }
  }

  /**
   * Each model call recorded counts one against the key's rate limit, as each log does (the request counted one in
   * the guard). An export with more than the key may send in a minute can never fit: a 400, which exporters do not
   * retry; one that does not fit now is a 429 with Retry-After, which they do.
   */
  private async charge(agent: AgentIdentity, calls: number, reply: ReplyHeaders): Promise<void> {
    const limit = agent.rateLimitPerMin ?? this.config.agentRateLimitPerMin;
    if (limit === 0 || calls <= 1) return;
    if (calls > limit) {
      const message = `the request holds ${calls} model-call and decision spans, more than this agent key may send in a minute (${limit}): export smaller batches`;
      throw new HttpException({ code: 'OTLP_OVER_RATE_LIMIT', message }, 400);
    }
    const waitMs = await this.limiter.take(agent.agentKeyId, agent.rateLimitPerMin, calls - 1);
    if (waitMs !== undefined)
      throw rateLimited(
        reply,
        waitMs,
        `the ${calls} model-call and decision spans of this request would take this agent key over its limit of ${limit} a minute`,
      );
  }
}
