import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import type { AiLog } from '#libs/database';
import { AiLogRepository } from './ai-log.repository.js';

/**
 * Keeps this process's claims alive while their uploads are in flight. A claim is a lease of UPLOAD_CLAIM_MS, renewed
 * here every third of it in one statement for all of them: a slow upload keeps its claim however long it takes,
 * and the claims of a worker that dies lapse within one lease, for the relay to retry (an `uncertain` attempt).
 */
@Injectable()
export class UploadLeases implements OnApplicationShutdown {
  private readonly logger = new Logger(UploadLeases.name);
  /** Log id → the attempt number its claim made (a claim that lapsed and was taken again is the new claim's). */
  private readonly held = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private renewing = false;

  constructor(
    private readonly repository: AiLogRepository,
    private readonly config: GatewayConfig,
  ) {}

  /** Sends `log`, just claimed, with `send`, renewing its claim until `send` settles. */
  async whileHeld<T>(log: Pick<AiLog, 'id' | 'attemptCount'>, send: () => Promise<T>): Promise<T> {
    this.held.set(log.id, log.attemptCount);
    this.timer ??= setInterval(() => void this.renew(), Math.ceil(this.config.uploadClaimMs / 3)).unref();
    try {
      return await send();
    } finally {
      this.held.delete(log.id);
    }
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    try {
      await this.repository.renewClaims(this.held, this.config.uploadClaimMs);
    } catch (error) {
      // A renewal that fails lets the claims lapse: their logs are retried, each after an `uncertain` attempt.
      this.logger.warn(`claims of ${this.held.size} uploads in flight not renewed: ${(error as Error).message}`);
    } finally {
      this.renewing = false;
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
