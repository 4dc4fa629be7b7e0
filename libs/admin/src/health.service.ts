import { Inject, Injectable } from '@nestjs/common';
import { QUEUE_BACKEND, type QueueBackend } from '#libs/queue';
import { DatabasePingRepository } from './database-ping.repository.js';
import { type ExchangeReachability, ExchangeProbe } from './exchange-probe.js';
import { withTimeLimit } from './time-limit.js';

const DATABASE_WAIT_MS = 2_000;

export interface Check {
  ok: boolean;
  latencyMs?: number;
  error?: string;
}

export interface Readiness {
  status: 'ready' | 'unready';
  /** The checks that decide readiness; `failed` names those that did not pass. */
  checks: { database: Check; queue: Check & { backend: string } };
  failed: string[];
  /** Reported, never decisive: without the exchange the gateway still accepts logs and uploads them later. */
  exchange: ExchangeReachability;
}

/** Liveness is the process answering; readiness is PostgreSQL answering and the queue's store connected. */
@Injectable()
export class HealthService {
  constructor(
    private readonly database: DatabasePingRepository,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
    private readonly exchange: ExchangeProbe,
  ) {}

  async readiness(): Promise<Readiness> {
    const [database, exchange] = await Promise.all([this.checkDatabase(), this.exchange.check()]);
    const queue = this.backend.ready()
      ? { ok: true, backend: this.backend.kind }
      : { ok: false, backend: this.backend.kind, error: `the queue's ${this.backend.kind} store is not connected or not answering` };
    const checks = { database, queue };
    const failed = Object.entries(checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);
    return { status: failed.length === 0 ? 'ready' : 'unready', checks, failed, exchange };
  }

  private async checkDatabase(): Promise<Check> {
    const started = Date.now();
    try {
      await withTimeLimit(this.database.ping(), DATABASE_WAIT_MS, 'PostgreSQL');
      return { ok: true, latencyMs: Date.now() - started };
    } catch (error) {
      return { ok: false, latencyMs: Date.now() - started, error: (error as Error).message };
    }
  }
}
