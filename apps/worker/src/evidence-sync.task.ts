import { Injectable, Logger } from '@nestjs/common';
import { EvidenceSyncService } from '#libs/evidence';

/** One sync of every account's evidence (PeriodicJob.EvidenceSync, every EVIDENCE_SYNC_INTERVAL_MS). */
@Injectable()
export class EvidenceSyncTask {
  private readonly logger = new Logger(EvidenceSyncTask.name);

  constructor(private readonly sync: EvidenceSyncService) {}

  async run(): Promise<void> {
    try {
      for (const result of await this.sync.syncAll()) {
        const failed = Object.entries(result.streams)
          .filter(([, s]) => !s.ok)
          .map(([name]) => name);
        if (result.skipped) this.logger.debug(`evidence sync of account ${result.accountId} skipped: ${result.skipped}`);
        else if (failed.length > 0) this.logger.debug(`evidence sync of account ${result.accountId}: ${failed.join(', ')} failed`);
      }
    } catch (error) {
      this.logger.warn(`evidence sync run failed, will try again: ${(error as Error).message}`);
    }
  }

  /** Aborts a run under way (its exchange calls) and waits until it has let go of its account locks. */
  stop(): Promise<void> {
    return this.sync.stop();
  }
}
