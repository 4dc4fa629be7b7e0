import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { canonicalJson, canonicalLogParts, type ModelCallRef } from '#libs/audit-chain';
import { GroupCommit, stringifyJson, uuidv7 } from '#libs/common';
import type { IdempotencyClaim } from '#libs/idempotency';
import { ModelCallDecisions, noExplanation, type ResolvedCalls, type StoredModelCallWithBodies } from '#libs/model-calls';
import { type FieldError, ValidationFailedException } from '#libs/validation';
import { QUEUE_BACKEND, type QueueBackend, QueueName } from '#libs/queue';
import { type LogToAppend } from './ai-log-append.repository.js';
import type { BatchItemResult } from './ai-log-batch.js';
import { AiLogAppender } from './ai-log-appender.js';
import { AiLogRepository } from './ai-log.repository.js';
import { type AiLogView, toAiLogView } from './ai-log.view.js';
import { type CreateAiLogDto, MAX_EXPLANATION_CHARS } from './create-ai-log.dto.js';
import { readOrderId } from './order-id.js';
import { queueWakeups } from './upload-job.js';

export interface Author {
  accountId: string;
  agentKeyId: string;
}

export interface Accepted {
  id: string;
  status: 'queued';
  receivedAt: string;
}

/** An Idempotency-Key's claim, and the answer a retry with it replays, made from what the logs were accepted as. */
export interface KeyedAnswer {
  claim: IdempotencyClaim;
  answer(accepted: Accepted[]): unknown;
}

type FilledField = 'model' | 'input' | 'output' | 'explanation';
/** The fields a log that names its calls left out, for them to fill. */
const missingFields = (dto: CreateAiLogDto): FilledField[] =>
  (['model', 'input', 'output', 'explanation'] as const).filter((field) => dto[field] === undefined);

const acceptedAs = (ids: string[], receivedAt: Date): Accepted[] => ids.map((id) => ({ id, status: 'queued', receivedAt: receivedAt.toISOString() }));

@Injectable()
export class AiLogService {
  private readonly logger = new Logger(AiLogService.name);
  /** Wakes the accounts of concurrent requests' logs in one queue write (one Redis round trip) per group, like the commits. */
  private readonly enqueues = new GroupCommit<string, void>(async (accountIds) => {
    await this.enqueue(accountIds);
    return accountIds.map(() => undefined);
  }, 1_000);

  constructor(
    private readonly repository: AiLogRepository,
    private readonly appender: AiLogAppender,
    @InjectQueue(QueueName.AiLogUpload) private readonly queue: Queue,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
    private readonly modelCalls: ModelCallDecisions,
  ) {}

  /** The links of the calls each checked log names (withModelCalls), held only as long as the log itself. */
  private readonly modelCallLinks = new WeakMap<CreateAiLogDto, ModelCallRef[]>();

  private linksOf(dto: CreateAiLogDto): ModelCallRef[] {
    if (!dto.modelCallIds) return [];
    const links = this.modelCallLinks.get(dto);
    if (!links) throw new Error('a log that names model calls was not checked with withModelCalls before acceptMany');
    return links;
  }

  /**
   * Commits the log, then queues it. The answer is given only after the commit; a queue failure does not
   * undo it, since the log is in the database with status `queued`.
   */
  async accept(dto: CreateAiLogDto, author: Author, keyed?: KeyedAnswer): Promise<Accepted> {
    if (dto.modelCallIds) {
      const errors = await this.withModelCalls(dto, author.accountId);
      if (errors.length > 0) throw new ValidationFailedException(errors);
    }
    return this.acceptMany([dto], author, keyed).then(([accepted]) => accepted);
  }

  /**
   * withModelCalls for the items of a batch that name model calls: an item whose calls do not check out is taken out
   * of `valid` and answered as rejected, its errors' paths under `logs.<index>`.
   */
  async withModelCallsInBatch(valid: Array<{ index: number; dto: CreateAiLogDto }>, accountId: string): Promise<BatchItemResult[]> {
    const rejected: BatchItemResult[] = [];
    for (const item of valid.filter((v) => v.dto.modelCallIds)) {
      const errors = await this.withModelCalls(item.dto, accountId);
      if (errors.length === 0) continue;
      valid.splice(valid.indexOf(item), 1);
      rejected.push({ index: item.index, status: 'rejected', errors: errors.map((e) => ({ path: `logs.${item.index}.${e.path}`, message: e.message })) });
    }
    return rejected;
  }

  /**
   * Checks the model calls a log names (they must be the account's), and fills the fields it left out from them.
   * Returns the errors, paths relative to the log; the log is complete when there are none.
   */
  async withModelCalls(dto: CreateAiLogDto, accountId: string): Promise<FieldError[]> {
    const missing = missingFields(dto);
    return this.apply(dto, missing, await this.modelCalls.resolve(accountId, dto.modelCallIds!, missing.length > 0, MAX_EXPLANATION_CHARS));
  }

  /** withModelCalls for a log whose calls (the account's, in its modelCallIds' order) were read already. */
  withCalls(dto: CreateAiLogDto, calls: StoredModelCallWithBodies[]): FieldError[] {
    const missing = missingFields(dto);
    return this.apply(dto, missing, this.modelCalls.decide(calls, missing.length > 0, MAX_EXPLANATION_CHARS));
  }

  private apply(dto: CreateAiLogDto, missing: FilledField[], { links, decision, errors }: ResolvedCalls): FieldError[] {
    if (errors.length > 0) return errors;
    if (decision?.explanation === '' && missing.includes('explanation')) {
      const last = links.length - 1;
      return [{ path: `modelCallIds.${last}`, message: noExplanation(last, links[last].id) }];
    }
    if (decision) for (const field of missing) Object.assign(dto, { [field]: decision[field] });
    this.modelCallLinks.set(dto, links);
    return [];
  }

  /**
   * Commits the logs (with other requests' logs, in one transaction: group commit) and appends them to the account's
   * audit chain, then queues them together. Answers in the order given. With `keyed`, the Idempotency-Key and the
   * answer it replays are recorded in the same transaction (IdempotencyKeyTakenError if another request had it).
   */
  acceptMany(dtos: CreateAiLogDto[], author: Author, keyed?: KeyedAnswer): Promise<Accepted[]> {
    // Not async itself: a suspended async function would keep `dtos`, the parsed logs, alive until the commit.
    return this.appendAndQueue(
      dtos.map((dto) => toLogToAppend(dto, author, this.linksOf(dto))),
      keyed,
    );
  }

  private async appendAndQueue(logs: LogToAppend[], keyed?: KeyedAnswer): Promise<Accepted[]> {
    const ids = logs.map((log) => log.id);
    const key = keyed && { claim: keyed.claim, answer: (at: Date) => stringifyJson(keyed.answer(acceptedAs(ids, at))) };
    const receivedAt = await this.appender.append(logs, key);
    await this.enqueues.submit(logs.map((log) => log.accountId));
    return acceptedAs(ids, receivedAt);
  }

  /**
   * Waits for the queue at most REDIS_COMMAND_TIMEOUT_MS (the queue connection's command timeout), and not at all
   * while Redis is away or has left a command unanswered since it last answered: the agent should not wait on Redis.
   * The log is committed either way, and the relay wakes its account from PostgreSQL once the queue answers again.
   */
  private async enqueue(accountIds: string[]): Promise<void> {
    if (!this.backend.ready()) return;
    try {
      await queueWakeups(this.queue, accountIds);
    } catch (error) {
      // The relay wakes these accounts from PostgreSQL once the queue answers again.
      this.logger.error(`${accountIds.length} log(s) committed but their account not woken yet (${accountIds[0]}): ${(error as Error).message}`);
    }
  }

  async get(id: string, accountId: string, defaultTarget: 'simulator' | 'exchange'): Promise<AiLogView> {
    const log = /^[0-9a-f-]{36}$/i.test(id) ? await this.repository.findForAccount(id, accountId) : null;
    if (!log) throw new NotFoundException(`no AI log ${id} for this account`);
    return toAiLogView(log, defaultTarget);
  }
}

function toLogToAppend(dto: CreateAiLogDto, author: Author, modelCalls: ModelCallRef[]): LogToAppend {
  const log = {
    id: uuidv7(),
    accountId: author.accountId,
    agentKeyId: author.agentKeyId,
    orderId: dto.orderId == null ? null : (readOrderId(dto.orderId) as { digits: string }).digits,
    stage: dto.stage,
    model: dto.model,
    input: stringifyJson(dto.input),
    output: stringifyJson(dto.output),
    explanation: dto.explanation,
    modelCalls,
  };
  return { ...log, canonical: canonicalLogParts(log, canonicalJson(dto.input), canonicalJson(dto.output)) };
}
