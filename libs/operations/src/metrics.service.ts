import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { WeexAccountClients } from '#libs/weex-client';
import { AccountOperationsRepository } from './account-operations.repository.js';
import { LATENCY_BUCKETS_MS, LogStatsRepository } from './log-stats.repository.js';
import { PrecountedHistogram } from './precounted-histogram.js';
import { QueueOverviewService } from './queue-overview.service.js';
import { withTimeLimit } from './time-limit.js';

const BUDGET_READ_MS = 2_000;

/**
 * Prometheus metrics, computed at scrape time. The worker has no HTTP port, so upload metrics come from PostgreSQL,
 * which every process shares: ai_logs and upload_attempts rows are only ever added (never deleted), so counts over them
 * are valid cumulative counters and histogram buckets, surviving restarts and identical from every API replica (scrape
 * one, or aggregate replicas with max, not sum). Gauges (queue depth, weight budget) are read at the scrape too.
 */
@Injectable()
export class MetricsService {
  private readonly logger = new Logger(MetricsService.name);
  private readonly registry = new Registry();
  private rendering?: Promise<string>;

  private readonly accepted = new Counter({
    name: 'gateway_ai_logs_accepted_total',
    help: 'AI logs accepted (committed) from agents, by account.',
    labelNames: ['account'],
    registers: [this.registry],
  });
  private readonly logs = new Gauge({
    name: 'gateway_ai_logs',
    help: 'AI logs by account and status in PostgreSQL (the queue depth that counts: queued and retrying are waiting).',
    labelNames: ['account', 'status'],
    registers: [this.registry],
  });
  private readonly jobs = new Gauge({
    name: 'gateway_queue_jobs',
    help: 'BullMQ jobs of the upload queue by state; absent while the queue store is away.',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
  });
  private readonly queueUp = new Gauge({
    name: 'gateway_queue_up',
    help: '1 when the upload queue answered this scrape, 0 otherwise.',
    registers: [this.registry],
  });
  private readonly latency = new PrecountedHistogram(
    'gateway_upload_latency_seconds',
    'Time each upload attempt took, from sending to the answer (or the failure), by outcome.',
    LATENCY_BUCKETS_MS.map((ms) => ms / 1000),
  );
  private readonly answers = new Counter({
    name: 'gateway_upload_attempts_total',
    help: 'Upload attempts by outcome, HTTP status and exchange code (`none` when there was none).',
    labelNames: ['outcome', 'http_status', 'exchange_code'],
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'gateway_upload_rate_limited_total',
    help: 'Upload attempts the exchange answered with HTTP 429.',
    registers: [this.registry],
  });
  private readonly weightUsed = new Gauge({
    name: 'gateway_weex_weight_used',
    help: "Request weight taken in the current window of the account's budget (ip or uid), as this process sees it.",
    labelNames: ['account', 'budget'],
    registers: [this.registry],
  });
  private readonly weightLimit = new Gauge({
    name: 'gateway_weex_weight_limit',
    help: "Request weight allowed per window of the account's budget (ip or uid).",
    labelNames: ['account', 'budget'],
    registers: [this.registry],
  });
  private readonly paused = new Gauge({
    name: 'gateway_account_uploads_paused',
    help: '1 while an admin has paused the account’s uploads.',
    labelNames: ['account'],
    registers: [this.registry],
  });

  constructor(
    private readonly stats: LogStatsRepository,
    private readonly queue: QueueOverviewService,
    private readonly accounts: AccountOperationsRepository,
    private readonly clients: WeexAccountClients,
  ) {
    this.registry.registerMetric(this.latency.asMetric());
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text. Concurrent scrapes share one rendering, since each one resets and refills the metrics. */
  render(): Promise<string> {
    this.rendering ??= this.collect()
      .then(() => this.registry.metrics())
      .finally(() => (this.rendering = undefined));
    return this.rendering;
  }

  private async collect(): Promise<void> {
    const [byAccount, histograms, answers, jobs] = await Promise.all([
      this.stats.countsByAccount(),
      this.stats.latencyHistograms(),
      this.stats.answers(),
      this.queue.jobCounts().catch((error: Error) => {
        this.logger.warn(`queue job counts left out of the scrape: ${error.message}`);
        return undefined;
      }),
    ]);
    this.registry.resetMetrics();

    for (const [account, counts] of byAccount) {
      this.accepted.inc({ account }, Object.values(counts).reduce((a, b) => a + b, 0));
      for (const [status, n] of Object.entries(counts)) this.logs.set({ account, status }, n);
    }
    this.queueUp.set(jobs ? 1 : 0);
    for (const [state, n] of Object.entries(jobs ?? {})) this.jobs.set({ queue: 'ai-log-upload', state }, n);

    this.latency.set(histograms.map((h) => ({ labels: { outcome: h.outcome }, buckets: h.buckets, count: h.count, sum: h.sumMs / 1000 })));
    let tooMany = 0;
    for (const a of answers) {
      this.answers.inc({ outcome: a.outcome, http_status: a.httpStatus, exchange_code: a.exchangeCode }, a.count);
      if (a.httpStatus === '429') tooMany += a.count;
    }
    this.rateLimited.inc(tooMany);

    await this.collectAccounts();
  }

  /** Which accounts are paused, and the weight budgets of the accounts this process has clients for. */
  private async collectAccounts(): Promise<void> {
    for (const row of await this.accounts.list()) this.paused.set({ account: row.id }, row.uploadsPausedAt ? 1 : 0);
    await Promise.all(
      this.clients.accountIds().map(async (account) => {
        const client = this.clients.forAccount(account);
        const usage = client && (await withTimeLimit(client.budget.usage(), BUDGET_READ_MS, 'the weight budget').catch(() => undefined));
        if (!usage) return;
        for (const budget of ['ip', 'uid'] as const) {
          this.weightUsed.set({ account, budget }, usage[budget].used);
          this.weightLimit.set({ account, budget }, usage[budget].limit);
        }
      }),
    );
  }
}
