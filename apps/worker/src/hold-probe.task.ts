import { Injectable, Logger } from '@nestjs/common';
import { UploadHoldProbe } from '#libs/ai-log';

/** One probe of the accounts held for HTTP 521 (PeriodicJob.HoldProbe, every UPLOAD_HOLD_PROBE_MS). */
@Injectable()
export class HoldProbeTask {
  private readonly logger = new Logger(HoldProbeTask.name);

  constructor(private readonly probe: UploadHoldProbe) {}

  async run(): Promise<void> {
    try {
      await this.probe.probe();
    } catch (error) {
      this.logger.warn(`probe of held accounts failed, will try again: ${(error as Error).message}`);
    }
  }
}
