import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AiLogRelay } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';

/** Runs the outbox relay every RELAY_INTERVAL_MS, one run at a time, for as long as the worker lives. */
@Injectable()
export class RelayScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RelayScheduler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly relay: AiLogRelay,
    private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.run().finally(() => (this.running = undefined));
    }, this.config.relayIntervalMs);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async run(): Promise<void> {
    try {
      // Logs younger than one interval are left to the ingest path that is queueing them right now.
      const relayed = await this.relay.relayDue(this.config.relayIntervalMs);
      if (relayed > 0) this.logger.debug(`relayed ${relayed} due logs`);
    } catch (error) {
      this.logger.warn(`relay run failed, will try again: ${(error as Error).message}`);
    }
  }
}
