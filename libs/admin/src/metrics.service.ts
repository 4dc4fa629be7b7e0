import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { AccountPausesRepository } from '#libs/accounts';
import { AuditCheckRepository, AuditWitnessRepository } from '#libs/audit';
import { WeexAccountClients } from '#libs/weex-nest';
import { clockOffsetOf } from './exchange-probe.js';
import { LATENCY_BUCKETS_MS, LogStatsRepository } from '#libs/ai-log';
import { AttemptTally } from './attempt-tally.js';
import { PrecountedHistogram } from './precounted-histogram.js';
import { ProcessMetrics } from './process-metrics.js';
import { QueueOverviewService } from './queue-overview.service.js';
import { withTimeLimit } from './time-limit.js';

const BUDGET_READ_MS = 2_000;
const PAUSE_REASONS = ['admin', 'ip_not_allowlisted'];

/**
 * Prometheus metrics, computed at scrape time. The worker has no HTTP port, so upload metrics come from PostgreSQL,
 * which every process shares: ai_logs and upload_attempts rows are only ever added (never deleted), so counts over them
 * are valid cumulative counters and histogram buckets, surviving restarts and identical from every API replica (scrape
 * one, or aggregate replicas with max, not sum). A scrape reads what stays small as the history grows: the logs waiting,
 * in flight and failed, the chains' heads, and the attempts since the last scrape (AttemptTally). Gauges (queue depth,
 * weight budget) are read at the scrape too.
 * The process's own series (runtime, HTTP requests) follow them, from ProcessMetrics.
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
    help: "Request weight taken in the current span (a window and its guard) of the account's budget (ip or uid), as this process sees it.",
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
    help: "1 while the account's uploads are paused for the reason: `admin` (an admin paused them) or `ip_not_allowlisted` (WEEX answered HTTP 521; held until it answers again).",
    labelNames: ['account', 'reason'],
    registers: [this.registry],
  });
  private readonly clockOffset = new Gauge({
    name: 'gateway_weex_clock_offset_seconds',
    help: "The exchange's clock minus the gateway's, as signing uses it (timestamps more than 30 s off are refused).",
    labelNames: ['account'],
    registers: [this.registry],
  });

  private readonly chainOk = new Gauge({
    name: 'gateway_audit_chain_ok',
    help: "1 while the server-side check finds the account's stored audit chains (logs and upload receipts) intact, 0 once it finds them broken (GET /v1/audit/verify says where).",
    labelNames: ['account'],
    registers: [this.registry],
  });
  private readonly chainCheckedAt = new Gauge({
    name: 'gateway_audit_chain_checked_timestamp_seconds',
    help: "When the server-side check last ran on the account's audit chains (Unix time): alert when it stops moving.",
    labelNames: ['account'],
    registers: [this.registry],
  });

  private readonly witnessOk = new Gauge({
    name: 'gateway_audit_witness_ok',
    help: "1 while the witness cosigned the account's latest checkpoint it was asked about, 0 once it refused one or could not be reached (GET /v1/audit/head says why).",
    labelNames: ['account', 'witness'],
    registers: [this.registry],
  });

  constructor(
    private readonly stats: LogStatsRepository,
    private readonly attempts: AttemptTally,
    private readonly queue: QueueOverviewService,
    private readonly accounts: AccountPausesRepository,
    private readonly clients: WeexAccountClients,
    private readonly checks: AuditCheckRepository,
    private readonly witnesses: AuditWitnessRepository,
    private readonly process: ProcessMetrics,
  ) {
    this.registry.registerMetric(this.latency.asMetric());
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The exposition text: the shared series, then this process's own (ProcessMetrics). Concurrent scrapes share one
   * rendering, since each one resets and refills the shared metrics.
   */
  render(): Promise<string> {
    this.rendering ??= this.collect()
      .then(async () => canonicalNaN((await this.registry.metrics()) + (await this.process.registry.metrics())))
      .finally(() => (this.rendering = undefined));
    return this.rendering;
  }

  private async collect(): Promise<void> {
    const [byAccount, jobs, checks, witnesses] = await Promise.all([
      this.stats.countsByAccount(),
      this.queue.jobCounts().catch((error: Error) => {
        this.logger.warn(`queue job counts left out of the scrape: ${error.message}`);
        return undefined;
      }),
      this.checks.all(),
      this.witnesses.all(),
      this.attempts.refresh(),
    ]);
    this.registry.resetMetrics();

    for (const check of checks.filter((c) => c.checkedAt)) {
      this.chainOk.set({ account: check.accountId }, check.brokenReason ? 0 : 1);
      this.chainCheckedAt.set({ account: check.accountId }, check.checkedAt!.getTime() / 1000);
    }

    for (const w of witnesses.filter((w) => w.outcome)) this.witnessOk.set({ account: w.accountId, witness: w.witness }, w.outcome === 'cosigned' ? 1 : 0);

    for (const [account, counts] of byAccount) {
      this.accepted.inc(
        { account },
        Object.values(counts).reduce((a, b) => a + b, 0),
      );
      for (const [status, n] of Object.entries(counts)) this.logs.set({ account, status }, n);
    }
    this.queueUp.set(jobs ? 1 : 0);
    for (const [state, n] of Object.entries(jobs ?? {})) this.jobs.set({ queue: 'ai-log-upload', state }, n);

    this.latency.set(this.attempts.histograms().map((h) => ({ labels: { outcome: h.outcome }, buckets: h.buckets, count: h.count, sum: h.sumMs / 1000 })));
    let tooMany = 0;
    for (const a of this.attempts.answers()) {
      this.answers.inc({ outcome: a.outcome, http_status: a.httpStatus, exchange_code: a.exchangeCode }, a.count);
      if (a.httpStatus === '429') tooMany += a.count;
    }
    this.rateLimited.inc(tooMany);

    await this.collectAccounts();
  }

  /** Which accounts are paused, and the weight budgets and clock offsets of the accounts this process has clients for. */
  private async collectAccounts(): Promise<void> {
    for (const row of await this.accounts.list()) {
      const reason = row.uploadsPausedAt ? (row.uploadsPauseReason ?? 'admin') : null;
      for (const each of PAUSE_REASONS) this.paused.set({ account: row.id, reason: each }, each === reason ? 1 : 0);
    }
    await Promise.all(
      this.clients.accountIds().map(async (account) => {
        const client = this.clients.forAccount(account);
        if (!client) return;
        const [usage, offsetMs] = await Promise.all([
          withTimeLimit(client.budget.usage(), BUDGET_READ_MS, 'the weight budget').catch(() => undefined),
          clockOffsetOf(client, BUDGET_READ_MS),
        ]);
        if (offsetMs !== null) this.clockOffset.set({ account }, offsetMs / 1000);
        if (!usage) return;
        for (const budget of ['ip', 'uid'] as const) {
          this.weightUsed.set({ account, budget }, usage[budget].used);
          this.weightLimit.set({ account, budget }, usage[budget].limit);
        }
      }),
    );
  }
}

/** prom-client writes NaN as `Nan` (e.g. the event-loop lag before its first sample); the exposition formats spell it `NaN`. */
export const canonicalNaN = (text: string): string => text.replace(/^([^#].*) Nan$/gm, '$1 NaN');
