import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { EvidenceSyncService } from '#libs/evidence';

/** Syncs the evidence of every account every EVIDENCE_SYNC_INTERVAL_MS, one run at a time, for as long as the worker lives. */
@Injectable()
export class EvidenceSyncScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EvidenceSyncScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly sync: EvidenceSyncService,
    private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.run().finally(() => (this.running = undefined));
    }, this.config.evidenceSyncIntervalMs);
  }

  /** First shutdown phase: no new run, the one under way aborted and its lock released while the database is up. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sync.stop();
    await this.running;
  }

  private async run(): Promise<void> {
    try {
      for (const result of await this.sync.syncAll()) {
        const failed = Object.entries(result.streams).filter(([, s]) => !s.ok).map(([name]) => name);
        if (result.skipped) this.logger.debug(`evidence sync of account ${result.accountId} skipped: ${result.skipped}`);
        else if (failed.length > 0) this.logger.debug(`evidence sync of account ${result.accountId}: ${failed.join(', ')} failed`);
      }
    } catch (error) {
      this.logger.warn(`evidence sync run failed, will try again: ${(error as Error).message}`);
    }
  }
}
