import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type Type } from '@nestjs/common';
import type { Job } from 'bullmq';
import { GatewayConfig } from '#libs/config';
import { PeriodicJob, QUEUE_BACKEND, type QueueBackend, QueueName } from '#libs/queue';
import { WatchedRedis } from '#libs/redis';
import { AuditCheckpointTask } from './audit-checkpoint.task.js';
import { EvidenceSyncTask } from './evidence-sync.task.js';
import { HoldProbeTask } from './hold-probe.task.js';
import { IdempotencyPurgeTask } from './idempotency-purge.task.js';
import { PeriodicSchedules } from './periodic-schedules.js';
import { RelayTask } from './relay.task.js';
import { TraceDecisionsTask } from './trace-decisions.task.js';

/**
 * Runs the periodic work that the job schedulers (PeriodicSchedules) put on the periodic queue, by job name: one run
 * per interval across all workers. Each kind runs at most once at a time in this process (a run that is due while the
 * last one still runs is skipped), and several kinds at once, so a long evidence sync holds up no relay run. Closed in
 * the first shutdown phase; registered through `periodicWorkProcessor(config)`, which gives it its worker options.
 */
@Injectable()
export class PeriodicWorkProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PeriodicWorkProcessor.name);
  private readonly running = new Set<PeriodicJob>();
  private readonly tasks: Record<PeriodicJob, () => Promise<unknown>>;
  private lastError = '';
  private keeper?: NodeJS.Timeout;
  private keeping?: Promise<void>;
  private readonly onQueueReady = () => void this.keepSchedules();

  constructor(
    private readonly schedules: PeriodicSchedules,
    private readonly config: GatewayConfig,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
    relay: RelayTask,
    holdProbe: HoldProbeTask,
    private readonly evidence: EvidenceSyncTask,
    audit: AuditCheckpointTask,
    purge: IdempotencyPurgeTask,
    decisions: TraceDecisionsTask,
  ) {
    super();
    this.tasks = {
      [PeriodicJob.Relay]: () => relay.run(),
      [PeriodicJob.HoldProbe]: () => holdProbe.run(),
      [PeriodicJob.EvidenceSync]: () => evidence.run(),
      [PeriodicJob.AuditCheck]: () => audit.checkAll(),
      [PeriodicJob.AuditCheckpoint]: () => audit.run(),
      [PeriodicJob.IdempotencyPurge]: () => purge.purge(),
      [PeriodicJob.TraceDecisions]: () => decisions.run(),
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker.run().catch((error: Error) => this.onError(error));
    try {
      await this.schedules.upsertAll();
    } catch (error) {
      this.logger.warn(`periodic job schedulers not set up yet, will try again: ${(error as Error).message}`);
    }
    // A Redis that comes back empty has lost the schedulers with everything else, and nothing in the queue can say
    // so: every worker looks (one read) every RELAY_INTERVAL_MS, and when its queue connection is ready again, and
    // puts them back. The relay is among them, and it is what queues the uploads whose wake-ups were lost.
    this.keeper = setInterval(() => void this.keepSchedules(), this.config.relayIntervalMs);
    this.keeper.unref();
    if (this.backend.connection instanceof WatchedRedis) this.backend.connection.on('ready', this.onQueueReady);
  }

  /** First shutdown phase: no new runs; an evidence sync under way is aborted, the other runs finish. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.keeper);
    if (this.backend.connection instanceof WatchedRedis) this.backend.connection.off('ready', this.onQueueReady);
    await Promise.all([this.worker.close(), this.evidence.stop(), this.keeping]);
  }

  async process(job: Job): Promise<unknown> {
    const name = job.name as PeriodicJob;
    const task = this.tasks[name];
    // A job of another name (an earlier version's) is dropped: its scheduler is not this version's to run.
    if (!task) return 'unknown job';
    if (this.running.has(name)) return 'skipped: the last run is still under way';
    this.running.add(name);
    try {
      return (await task()) ?? null;
    } finally {
      this.running.delete(name);
    }
  }

  /**
   * Unheard, a lost connection's 'error' event would stop the worker's loop; heard, BullMQ reconnects. Each kind of
   * message is logged once in a row (the numbers in it aside), not at every try.
   */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    const kind = error.message.replace(/\d+/g, '#');
    if (kind !== this.lastError) this.logger.warn(`queue connection: ${error.message}`);
    this.lastError = kind;
  }

  private keepSchedules(): Promise<void> {
    if (!this.backend.ready()) return Promise.resolve();
    this.keeping ??= this.schedules
      .repair()
      .then((repaired) => {
        if (repaired.length > 0) this.logger.warn(`job schedulers put back on the queue: ${repaired.join(', ')}`);
      })
      .catch((error: Error) => this.logger.warn(`could not check the job schedulers, will try again: ${error.message}`))
      .finally(() => (this.keeping = undefined));
    return this.keeping;
  }
}

/**
 * The processor with its worker options from `config`, declared once per config: @nestjs/bullmq reads a worker's
 * options only from its class's `@Processor`.
 */
export function periodicWorkProcessor(config: GatewayConfig): Type<PeriodicWorkProcessor> {
  @Processor(QueueName.Periodic, {
    // One slot per kind, so that a long evidence sync holds up no relay run.
    concurrency: Object.keys(PeriodicJob).length,
    // While Redis is away, BullMQ tries again this often (its default, 15 s, would hold up the relay after it returns).
    runRetryDelay: config.relayIntervalMs,
    // Run from onApplicationBootstrap, with the schedulers' upsert, not when Nest builds the worker at module init.
    autorun: false,
  })
  class ConfiguredPeriodicWorkProcessor extends PeriodicWorkProcessor {}
  return ConfiguredPeriodicWorkProcessor;
}
