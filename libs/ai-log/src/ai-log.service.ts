import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { canonicalJson, canonicalLogParts } from '#libs/audit-chain';
import { stringifyJson, uuidv7 } from '#libs/common';
import { JobName, type JobPayload, QUEUE_BACKEND, type QueueBackend, QueueName } from '#libs/queue';
import { AiLogAppender, type LogToAppend } from './ai-log-appender.js';
import { GroupCommit } from './group-commit.js';
import { AiLogRepository } from './ai-log.repository.js';
import { type AiLogView, toAiLogView } from './ai-log.view.js';
import type { CreateAiLogDto } from './create-ai-log.dto.js';
import { readOrderId } from './order-id.js';
import { queueLogsJobOptions } from './upload-job.js';

const ENQUEUE_WAIT_MS = 2_000;

export interface Author {
  accountId: string;
  agentKeyId: string;
}

export interface Accepted {
  id: string;
  status: 'queued';
  receivedAt: string;
}

@Injectable()
export class AiLogService {
  private readonly logger = new Logger(AiLogService.name);
  /** Queues the ids of concurrent requests in one job (one Redis round trip) per group, like the commits. */
  private readonly enqueues = new GroupCommit<string, void>(async (ids) => {
    await this.enqueue(ids);
    return ids.map(() => undefined);
  }, 1_000);

  constructor(
    private readonly repository: AiLogRepository,
    private readonly appender: AiLogAppender,
    @InjectQueue(QueueName.AiLogUpload) private readonly queue: Queue,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
  ) {}

  /**
   * Commits the log, then queues it. The answer is given only after the commit; a queue failure does not
   * undo it, since the log is in the database with status `queued`.
   */
  accept(dto: CreateAiLogDto, author: Author): Promise<Accepted> {
    return this.acceptMany([dto], author).then(([accepted]) => accepted);
  }

  /**
   * Commits the logs (with other requests' logs, in one transaction: group commit) and appends them to the account's
   * audit chain, then queues them together. Answers in the order given.
   */
  acceptMany(dtos: CreateAiLogDto[], author: Author): Promise<Accepted[]> {
    // Not async itself: a suspended async function would keep `dtos`, the parsed logs, alive until the commit.
    return this.appendAndQueue(dtos.map((dto) => toLogToAppend(dto, author)));
  }

  private async appendAndQueue(logs: LogToAppend[]): Promise<Accepted[]> {
    const receipts = await this.appender.append(logs);
    await this.enqueues.submit(logs.map((log) => log.id));
    return receipts.map((receipt, i) => ({ id: logs[i].id, status: 'queued', receivedAt: receipt.receivedAt.toISOString() }));
  }

  /**
   * Waits for the queue at most ENQUEUE_WAIT_MS: when Redis goes away mid-call an add waits in ioredis's offline
   * queue, and the agent should not wait with it. The log is committed either way.
   */
  private async enqueue(ids: string[]): Promise<void> {
    // While Redis is away, an add would only wait; the relay queues these logs from PostgreSQL once it is back.
    if (!this.backend.ready()) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`queue did not answer within ${ENQUEUE_WAIT_MS} ms`)), ENQUEUE_WAIT_MS);
    });
    try {
      const payload: JobPayload[JobName.QueueAiLogs] = { logIds: ids };
      await Promise.race([this.queue.add(JobName.QueueAiLogs, payload, queueLogsJobOptions(ids[0])), timeout]);
    } catch (error) {
      // The relay queues these from PostgreSQL once the queue answers again.
      this.logger.error(`${ids.length} log(s) committed but not queued yet (first ${ids[0]}): ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async get(id: string, accountId: string, defaultTarget: 'simulator' | 'exchange'): Promise<AiLogView> {
    const log = /^[0-9a-f-]{36}$/i.test(id) ? await this.repository.findForAccount(id, accountId) : null;
    if (!log) throw new NotFoundException(`no AI log ${id} for this account`);
    return toAiLogView(log, defaultTarget);
  }
}

function toLogToAppend(dto: CreateAiLogDto, author: Author): LogToAppend {
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
  };
  return { ...log, canonical: canonicalLogParts(log, canonicalJson(dto.input), canonicalJson(dto.output)) };
}
