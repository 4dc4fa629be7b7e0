import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { AgentIdentity } from '#libs/accounts';
import { isStorableText, parseJson } from '#libs/common';
import { GatewayConfig } from '#libs/config';
import { IdempotencyKeyTakenError, IdempotencyRepository } from '#libs/idempotency';
import { fit, MAX_FILLED_BYTES, ModelCallDecisions, type StoredModelCallWithBodies, tooLarge } from '#libs/model-calls';
import type { RefusedSpan, SpanDecision } from '#libs/otlp';
import { type FieldError, ValidationFailedException, validateBody } from '#libs/validation';
import { type Accepted, AiLogService, type KeyedAnswer } from '../ai-log.service.js';
import { CreateAiLogDto, MAX_MODEL_CALLS } from '../create-ai-log.dto.js';
import { LogNotStorableException } from '../log-not-storable.exception.js';
import { readOrderId } from '../order-id.js';
import { DEFAULT_DECISION_PAGE, type DecisionStatus, type ListTraceDecisionsQueryDto } from './trace-decisions-query.dto.js';
import { type DecisionCursor, type DecisionRow, type Outcome, type StoredDecision, TraceDecisionsRepository } from './trace-decisions.repository.js';

/** The stage of a decision whose span has no weex.stage. */
export const DEFAULT_STAGE = 'decision';
const A_CALL = '00000000-0000-7000-8000-000000000000';
/** The span attribute each field of the log comes from, to name it in an error. */
const ATTRIBUTE: Record<string, string> = { orderId: 'weex.order_id', stage: 'weex.stage', explanation: 'weex.explanation' };

/**
 * Spans that name an order (`weex.order_id`) become AI logs: each one's log is made of its trace's answered model calls
 * (the latest MAX_MODEL_CALLS; not by time, since the SDKs' span clocks disagree by a millisecond or more), filled as
 * a log that names its calls is (AiLogService.withModelCalls), and uploaded like any other. A decision exported with
 * calls of its trace is made at once (the SDKs' batches hold a trace's spans that ended together, children first);
 * one exported alone waits in `trace_decisions` until its trace has been quiet for TRACE_DECISION_SETTLE_MS, so that
 * calls exported apart (SimpleSpanProcessor's concurrent exports) are in its log. Exactly one log per (account, trace, span): the row is recorded once, and its log carries an idempotency key that only this service
 * makes (it holds spaces, which an Idempotency-Key header cannot), committed with the log.
 */
@Injectable()
export class TraceDecisions {
  private readonly logger = new Logger(TraceDecisions.name);

  constructor(
    private readonly config: GatewayConfig,
    private readonly decisions: TraceDecisionsRepository,
    private readonly calls: ModelCallDecisions,
    private readonly logs: AiLogService,
    private readonly keys: IdempotencyRepository,
  ) {}

  /**
   * After an export: records its decisions (a refused one with its reason, so that it is listed), makes the logs of
   * those that came with calls of their traces, and leaves the others, and those its calls' traces had waiting, to wait
   * until their traces are quiet (settleDue). Returns why each of the export's decision spans that will never be a log
   * is refused, for its partial_success; a span recorded before with other weex.* values is one of them.
   */
  async afterExport(agent: AgentIdentity, decisions: SpanDecision[], modelCallTraces: string[]): Promise<RefusedSpan[]> {
    const refused: RefusedSpan[] = [];
    const refuse = ({ traceId, spanId }: Pick<SpanDecision, 'traceId' | 'spanId'>, message: string) => refused.push({ traceId, spanId, message });
    const rows = new Map<string, DecisionRow>();
    for (const decision of decisions) {
      const error = decision.refused === null ? describe(decision, fieldErrors(decision)) : describe(decision, decision.refused);
      if (error) refuse(decision, error);
      const row = rowOf(decision, error);
      const first = rows.get(spanKey(row));
      if (!first) rows.set(spanKey(row), row);
      else if (!sameValues(first, row)) refuse(row, changed(row, first));
    }
    const earlier = rows.size > 0 ? await this.decisions.record(agent.accountId, agent.agentKeyId, [...rows.values()]) : [];
    for (const before of earlier) {
      const row = rows.get(spanKey(before))!;
      if (!sameValues(before, row)) refuse(row, changed(row, before));
    }
    const valid = [...rows.values()].filter((row) => row.error === null);
    if (modelCallTraces.length === 0) return refused;
    await this.decisions.touch(agent.accountId, modelCallTraces);
    const callTraces = new Set(modelCallTraces);
    const withCalls = valid.filter((d) => callTraces.has(d.traceId));
    if (withCalls.length === 0) return refused;
    const ours = new Set(withCalls.map(spanKey));
    const pending = (await this.decisions.pending(agent.accountId, [...new Set(withCalls.map((d) => d.traceId))])).filter((d) => ours.has(spanKey(d)));
    for (const { decision, outcome } of await this.settle(agent.accountId, pending)) {
      if ('error' in outcome) refuse(decision, outcome.error);
    }
    return refused;
  }

  /** The account's decision spans and what became of each, newest first, a page at a time (GET /v1/trace-decisions). */
  async list(accountId: string, query: ListTraceDecisionsQueryDto): Promise<{ data: TraceDecisionView[]; nextCursor: string | null }> {
    const limit = query.limit ?? DEFAULT_DECISION_PAGE;
    const rows = await this.decisions.list(accountId, query, limit + 1, query.cursor === undefined ? undefined : decodeCursor(query.cursor));
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map((row) => ({
        traceId: row.traceId,
        spanId: row.spanId,
        orderId: row.orderId,
        stage: row.stage ?? DEFAULT_STAGE,
        explanation: row.explanation,
        receivedAt: row.receivedAt.toISOString(),
        status: row.aiLogId ? 'logged' : row.error ? 'refused' : 'waiting',
        aiLogId: row.aiLogId,
        error: row.error,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    };
  }

  /**
   * The worker's sweep (PeriodicJob.TraceDecisions): makes the logs of the decisions whose traces have been quiet for
   * TRACE_DECISION_SETTLE_MS, oldest first; one whose trace has had no answered call for NO_CALLS_MS never will.
   */
  async settleDue(): Promise<number> {
    const now = Date.now();
    const due = await this.decisions.due(new Date(now - this.config.traceDecisionSettleMs), SWEEP_LIMIT);
    let made = 0;
    for (const accountId of new Set(due.map((d) => d.accountId))) {
      const settled = await this.settle(
        accountId,
        due.filter((d) => d.accountId === accountId),
        new Date(now - NO_CALLS_MS),
      );
      for (const { decision, outcome } of settled) {
        if ('aiLogId' in outcome) made++;
        else this.logger.warn(`account ${decision.accountId}: ${outcome.error}`);
      }
    }
    return made;
  }

  /**
   * Makes the decisions' logs of their traces' calls, and records what became of each: a log, or why none (calls that
   * cannot fill one; none since `givenUpBefore`). A decision whose trace has no call yet stays waiting.
   */
  private async settle(accountId: string, pending: StoredDecision[], givenUpBefore?: Date): Promise<Settled[]> {
    if (pending.length === 0) return [];
    const traceCalls = await this.calls.ofTraces(accountId, [...new Set(pending.map((d) => d.traceId))], MAX_MODEL_CALLS);
    const settled: Settled[] = [];
    for (const chunk of byBodyBytes(pending, traceCalls)) settled.push(...(await this.makeLogs(accountId, chunk, traceCalls)));
    for (const decision of pending) {
      const bytes = traceCalls.get(decision.traceId)?.bytes;
      if (bytes !== undefined && bytes > MAX_FILLED_BYTES) {
        settled.push({ decision, outcome: { error: describe(decision, [{ path: 'modelCallIds', message: tooLarge(bytes) }])! } });
      } else if (bytes === undefined && givenUpBefore && decision.touchedAt < givenUpBefore) {
        const message = `no answered model call of its trace came within ${NO_CALLS_MS / 60_000} minutes`;
        settled.push({ decision, outcome: { error: describe(decision, [{ path: 'modelCallIds', message }])! } });
      }
    }
    await this.decisions.settle(accountId, settled);
    return settled;
  }

  /** The logs of decisions whose traces' calls are read together (all at once: their logs share group commits). */
  private async makeLogs(accountId: string, decisions: StoredDecision[], traceCalls: Map<string, { ids: string[] }>) {
    const read = await this.calls.withBodies(accountId, [...new Set(decisions.flatMap((d) => traceCalls.get(d.traceId)!.ids))]);
    const byId = new Map(read.map((call) => [call.id, call]));
    const callsOf = (decision: StoredDecision) => traceCalls.get(decision.traceId)!.ids.flatMap((id) => byId.get(id) ?? []);
    const outcomes = await Promise.all(decisions.map((decision) => this.makeLog(decision, callsOf(decision))));
    return decisions.flatMap((decision, i) => (outcomes[i] ? [{ decision, outcome: outcomes[i] }] : []));
  }

  /** The decision's log, made of its trace's calls; why it cannot be made; or nothing while the trace has no call. */
  private async makeLog(decision: StoredDecision, calls: StoredModelCallWithBodies[]): Promise<Outcome | undefined> {
    if (calls.length === 0) return undefined;
    try {
      // Its fields passed fieldErrors when the decision was recorded; its calls are the account's, read just now.
      const log = Object.assign(new CreateAiLogDto(), fieldsOf(decision), { modelCallIds: calls.map((call) => call.id) });
      const errors = this.logs.withCalls(log, calls);
      if (errors.length > 0) return { error: describe(decision, errors)! };
      const [accepted] = await this.logs.acceptMany([log], { accountId: decision.accountId, agentKeyId: decision.agentKeyId }, keyedBy(decision));
      return { aiLogId: accepted.id };
    } catch (error) {
      if (error instanceof IdempotencyKeyTakenError) return this.madeBefore(decision);
      if (error instanceof ValidationFailedException) return { error: describe(decision, error.errors)! };
      if (error instanceof LogNotStorableException) return { error: describe(decision, [{ path: '', message: error.message }])! };
      throw error;
    }
  }

  /** Another export made the decision's log first (a retry while it was being made): the log it made. */
  private async madeBefore(decision: StoredDecision): Promise<Outcome | undefined> {
    const { claim } = keyedBy(decision);
    const made = await this.keys.find(claim.agentKeyId, claim.key);
    return made ? { aiLogId: (parseJson(made.body) as Accepted).id } : undefined;
  }
}

/** A decision span as GET /v1/trace-decisions lists it. */
export interface TraceDecisionView {
  traceId: string;
  spanId: string;
  orderId: string;
  stage: string;
  explanation: string | null;
  receivedAt: string;
  status: DecisionStatus;
  aiLogId: string | null;
  error: string | null;
}

type Settled = { decision: StoredDecision; outcome: Outcome };
/** Decisions one sweep takes at most; the rest wait for the next. */
const SWEEP_LIMIT = 1_000;
/** How long a decision waits for a call of its trace before it is given up. */
const NO_CALLS_MS = 10 * 60_000;

/** Bodies read at once at most: a trace's calls may hold megabytes each, and an export may name a thousand traces. */
const CHUNK_BYTES = 8 * 1_048_576;

/**
 * The decisions whose traces have calls, in chunks whose calls' bodies come to CHUNK_BYTES at most (one decision
 * alone may come to MAX_FILLED_BYTES). A decision whose calls come to more than a log holds is left out: it fails
 * without its bodies being read.
 */
function byBodyBytes(pending: StoredDecision[], traceCalls: Map<string, { ids: string[]; bytes: number }>): StoredDecision[][] {
  const chunks: StoredDecision[][] = [];
  let chunk: StoredDecision[] = [];
  let bytes = 0;
  for (const decision of pending) {
    const calls = traceCalls.get(decision.traceId);
    if (!calls || calls.bytes > MAX_FILLED_BYTES) continue;
    if (chunk.length > 0 && bytes + calls.bytes > CHUNK_BYTES) {
      chunks.push(chunk);
      [chunk, bytes] = [[], 0];
    }
    chunk.push(decision);
    bytes += calls.bytes;
  }
  return chunk.length > 0 ? [...chunks, chunk] : chunks;
}

/** The log's fields a decision gives; model, input, output (and explanation, when the span gave none) come from the calls. */
function fieldsOf(decision: Pick<SpanDecision, 'orderId' | 'stage' | 'explanation'>): Record<string, unknown> {
  return { orderId: decision.orderId, stage: decision.stage ?? DEFAULT_STAGE, ...(decision.explanation === null ? {} : { explanation: decision.explanation }) };
}

/** The rules of an AI log's fields the span gives (all but the calls', which are checked when they are in). */
function fieldErrors(decision: SpanDecision): FieldError[] {
  try {
    // A call's id stands in for the calls, checked when they are in: a valid decision throws nothing (exceptions cost).
    validateBody(CreateAiLogDto, { ...fieldsOf(decision), modelCallIds: [A_CALL] });
    return [];
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    return error.errors;
  }
}

/** The log's idempotency key: spaces make it one that no agent's Idempotency-Key header can be. */
function keyedBy(decision: StoredDecision): KeyedAnswer {
  const key = `otlp span ${decision.traceId} ${decision.spanId}`;
  const requestHash = createHash('sha256').update(key).digest('hex');
  return { claim: { agentKeyId: decision.agentKeyId, key, requestHash, status: 202 }, answer: ([accepted]) => accepted };
}

const spanKey = (decision: Pick<SpanDecision, 'traceId' | 'spanId'>) => `${decision.traceId}/${decision.spanId}`;

/** Why the span makes no log, naming the attribute and the rule; undefined when it has no error. */
function describe(decision: Pick<SpanDecision, 'traceId' | 'spanId'>, errors: FieldError[] | string): string | undefined {
  if (errors.length === 0) return undefined;
  const named =
    typeof errors === 'string'
      ? [errors]
      : errors.map((e) => {
          const field = e.path.split('.')[0];
          // The calls' rule asks a poster of the log for `explanation`; the span gives it as weex.explanation.
          if (field === 'modelCallIds') return `the trace's model calls: ${e.message.replace(/give explanation$/, 'set weex.explanation')}`;
          return `${ATTRIBUTE[field] ?? 'the log'}: ${e.message}`;
        });
  return `span ${decision.spanId} of trace ${decision.traceId} names an order but makes no AI log: ${named.join('; ')}`;
}

/** A page's cursor: its last decision, opaque (base64url) as the other lists' cursors. */
const encodeCursor = (last: DecisionCursor): string => Buffer.from(`${last.receivedAt.getTime()}.${last.traceId}.${last.spanId}`).toString('base64url');

function decodeCursor(text: string): DecisionCursor {
  const match = /^(\d{1,15})\.([0-9a-f]{32})\.([0-9a-f]{16})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) throw new ValidationFailedException([{ path: 'cursor', message: 'cursor must be the nextCursor of an earlier page' }]);
  return { receivedAt: new Date(Number(match[1])), traceId: match[2], spanId: match[3] };
}

/** A span is one decision: another export (or another copy in this one) with other weex.* values changes nothing. */
function changed(row: DecisionRow, first: DecisionRow): string {
  return (
    `span ${row.spanId} of trace ${row.traceId} was recorded before with other weex.* values (weex.order_id ${first.orderId}): ` +
    'a span is one decision, and the first stands; give another decision a span of its own'
  );
}

const sameValues = (a: DecisionRow, b: DecisionRow) => a.orderId === b.orderId && a.stage === b.stage && a.explanation === b.explanation;

/** A refused decision's values are listed, not used: each is cut to SHOWN_UNITS and made text PostgreSQL can store. */
function rowOf(decision: SpanDecision, error: string | undefined): DecisionRow {
  const { traceId, spanId, orderId, stage, explanation } = decision;
  // A valid order id is kept as its canonical digits, so that "05" sent again as "5" (or an int 5) is the same decision.
  if (error === undefined) return { traceId, spanId, orderId: canonical(orderId), stage, explanation, error: null };
  const shown = (text: string | null) => (text === null ? null : storable(fit(text, SHOWN_UNITS)));
  return { traceId, spanId, orderId: shown(orderId)!, stage: shown(stage), explanation: shown(explanation), error };
}

const SHOWN_UNITS = 1_000;

function canonical(orderId: string): string {
  const read = readOrderId(orderId);
  return 'digits' in read ? read.digits : orderId;
}

/** Text with U+0000 or a lone surrogate, escaped as JSON escapes it. */
const storable = (text: string) => (isStorableText(text) ? text : JSON.stringify(text).slice(1, -1));
