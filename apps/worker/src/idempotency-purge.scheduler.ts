import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { IdempotencyRepository } from '#libs/idempotency';

const EVERY_MS = 3_600_000;

/** Deletes Idempotency-Key records older than IDEMPOTENCY_KEY_TTL_MS (at least 24 h), once an hour. */
@Injectable()
export class IdempotencyPurgeScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyPurgeScheduler.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    try {
      const purged = await this.keys.purge(this.config.idempotencyKeyTtlMs);
      if (purged > 0) this.logger.log(`purged ${purged} idempotency keys`);
      return purged;
    } catch (error) {
      this.logger.warn(`idempotency purge failed, will try again: ${(error as Error).message}`);
      return 0;
    }
  }
}
