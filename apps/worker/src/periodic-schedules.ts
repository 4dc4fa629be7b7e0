import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobSchedulerTemplateOptions, Queue } from 'bullmq';
import { GatewayConfig } from '#libs/config';
import { PeriodicJob, QueueName } from '#libs/queue';

const HOUR_MS = 3_600_000;

/**
 * Every run is a job of its own, never retried: each task logs its own failure and tries again at its next run. The
 * dashboard keeps the last runs only (the relay alone makes one every RELAY_INTERVAL_MS).
 */
const RUN_OPTIONS: JobSchedulerTemplateOptions = { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } };

/**
 * The job schedulers of the periodic queue, one per PeriodicJob, shared by every worker: BullMQ makes one job per
 * interval, which one worker takes. A scheduler that does not exist yet makes its first job at once, so a fresh
 * deployment does not wait an interval for its first run; one that exists keeps its times when upserted again.
 */
@Injectable()
export class PeriodicSchedules {
  constructor(
    @InjectQueue(QueueName.Periodic) private readonly queue: Queue,
    private readonly config: GatewayConfig,
  ) {}

  /** This worker's intervals; EVIDENCE_SYNC_INTERVAL_MS=0 turns the evidence sync off. */
  intervals(): Map<PeriodicJob, number> {
    const c = this.config;
    const every = new Map<PeriodicJob, number>([
      [PeriodicJob.Relay, c.relayIntervalMs],
      [PeriodicJob.HoldProbe, c.uploadHoldProbeMs],
      [PeriodicJob.EvidenceSync, c.evidenceSyncIntervalMs],
      [PeriodicJob.AuditCheck, c.auditCheckIntervalMs],
      [PeriodicJob.AuditCheckpoint, c.auditCheckpointIntervalMs],
      [PeriodicJob.IdempotencyPurge, HOUR_MS],
      [PeriodicJob.TraceDecisions, c.traceDecisionSettleMs],
    ]);
    if (c.evidenceSyncIntervalMs === 0) every.delete(PeriodicJob.EvidenceSync);
    return every;
  }

  /** At start: every scheduler with this worker's intervals (a changed interval starts again with a run now). */
  async upsertAll(): Promise<void> {
    const every = this.intervals();
    for (const [job, ms] of every) await this.upsert(job, ms);
    if (!every.has(PeriodicJob.EvidenceSync)) await this.queue.removeJobScheduler(PeriodicJob.EvidenceSync);
  }

  /**
   * Puts back what the queue lost: a scheduler that is gone (Redis restarted empty, FLUSHALL) is made again, its first
   * run at once; one whose next run is more than an interval overdue (its job lost) is upserted with its own interval
   * (another worker's, if they differ), which keeps its times. One that exists and is due is left alone, so that
   * workers with different intervals (a rolling deploy) do not reset each other.
   */
  async repair(): Promise<PeriodicJob[]> {
    const existing = new Map((await this.queue.getJobSchedulers()).map((s) => [s.key, s]));
    const repaired: PeriodicJob[] = [];
    for (const [job, ms] of this.intervals()) {
      const scheduler = existing.get(job);
      const every = scheduler?.every ?? ms;
      if (scheduler && (scheduler.next ?? Infinity) >= Date.now() - every) continue;
      await this.upsert(job, every);
      repaired.push(job);
    }
    return repaired;
  }

  private async upsert(job: PeriodicJob, every: number): Promise<void> {
    await this.queue.upsertJobScheduler(job, { every }, { name: job, opts: RUN_OPTIONS });
  }
}
