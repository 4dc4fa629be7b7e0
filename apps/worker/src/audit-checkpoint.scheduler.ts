import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AuditCheckpoints } from '#libs/audit';
import { GatewayConfig } from '#libs/config';

/**
 * Every AUDIT_CHECKPOINT_INTERVAL_MS, signs each account's chain head if it moved since the last checkpoint. Two
 * workers at once may both sign the same head; that costs a duplicate row, never a wrong one.
 */
@Injectable()
export class AuditCheckpointScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AuditCheckpointScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly checkpoints: AuditCheckpoints,
    private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void (this.running = this.run()), this.config.auditCheckpointIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async run(): Promise<number> {
    let made = 0;
    try {
      for (const accountId of await this.checkpoints.accountsWithChains()) {
        const checkpoint = await this.checkpoints.checkpoint(accountId);
        if (checkpoint) {
          made++;
          this.logger.log(`checkpoint for ${accountId}: seq ${checkpoint.seq} hash ${checkpoint.hash}`);
        }
      }
    } catch (error) {
      this.logger.warn(`audit checkpoint failed, will try again: ${(error as Error).message}`);
    }
    return made;
  }
}
