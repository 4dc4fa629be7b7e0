import { Inject, Injectable, Logger } from '@nestjs/common';
import { AiLogRelay } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';
import { QUEUE_BACKEND, type QueueBackend } from '#libs/queue';

/** One run of the outbox relay (PeriodicJob.Relay, every RELAY_INTERVAL_MS). */
@Injectable()
export class RelayTask {
  private readonly logger = new Logger(RelayTask.name);

  constructor(
    private readonly relay: AiLogRelay,
    private readonly config: GatewayConfig,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
  ) {}

  async run(): Promise<void> {
    // While Redis is away or silent there is nothing to queue into; the next run after it answers queues everything.
    if (!this.backend.ready()) return;
    try {
      // Logs younger than one interval are left to the ingest path that is waking their accounts right now.
      const woken = await this.relay.wakeDue(this.config.relayIntervalMs);
      if (woken > 0) this.logger.debug(`woke ${woken} account(s) with due logs`);
    } catch (error) {
      this.logger.warn(`relay run failed, will try again: ${(error as Error).message}`);
    }
  }
}
