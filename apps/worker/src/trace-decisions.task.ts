import { Injectable, Logger } from '@nestjs/common';
import { TraceDecisions } from '#libs/ai-log';

/** Makes the AI logs of decision spans whose traces have been quiet: PeriodicJob.TraceDecisions, every TRACE_DECISION_SETTLE_MS. */
@Injectable()
export class TraceDecisionsTask {
  private readonly logger = new Logger(TraceDecisionsTask.name);

  constructor(private readonly decisions: TraceDecisions) {}

  async run(): Promise<number> {
    try {
      return await this.decisions.settleDue();
    } catch (error) {
      this.logger.warn(`AI logs of trace decisions not made yet, will try again: ${(error as Error).message}`);
      return 0;
    }
  }
}
