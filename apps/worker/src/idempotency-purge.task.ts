import { Injectable, Logger } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { IdempotencyRepository } from '#libs/idempotency';

/** Deletes Idempotency-Key records older than IDEMPOTENCY_KEY_TTL_MS (at least 24 h): PeriodicJob.IdempotencyPurge, hourly. */
@Injectable()
export class IdempotencyPurgeTask {
  private readonly logger = new Logger(IdempotencyPurgeTask.name);

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly config: GatewayConfig,
  ) {}

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
