import { Injectable, Logger } from '@nestjs/common';
import { AuditChainCheck, AuditCheckpoints, periodicBudget } from '#libs/audit';
import { GatewayConfig } from '#libs/config';

/**
 * The audit trail's periodic work. PeriodicJob.AuditCheck (every AUDIT_CHECK_INTERVAL_MS) checks each account's stored
 * chains a step further, that interval's share of a full run per minute (AuditChainCheck: workers take turns by lease,
 * so several never check one account at once).
 * PeriodicJob.AuditCheckpoint (every AUDIT_CHECKPOINT_INTERVAL_MS) checks again and signs both chains' heads if they
 * moved. Two runs at once may both sign the same heads; that costs a duplicate row, never a wrong one. Each check also
 * sends the latest checkpoint to the witnesses whose cosignature it lacks.
 */
@Injectable()
export class AuditCheckpointTask {
  private readonly logger = new Logger(AuditCheckpointTask.name);

  constructor(
    private readonly checkpoints: AuditCheckpoints,
    private readonly check: AuditChainCheck,
    private readonly config: GatewayConfig,
  ) {}

  /** Checks every account once; answers how many were found broken. */
  async checkAll(): Promise<number> {
    let broken = 0;
    const budget = periodicBudget(this.config.auditCheckIntervalMs);
    try {
      for (const accountId of await this.checkpoints.accountsWithChains()) {
        if (!(await this.check.run(accountId, { budget })).ok) broken++;
        // A checkpoint whose witnesses were down, or that a crash left unsent, goes to them within a check interval.
        await this.checkpoints.cosignMissing(accountId);
      }
    } catch (error) {
      this.logger.warn(`audit check failed, will try again: ${(error as Error).message}`);
    }
    return broken;
  }

  /** Signs every account's heads that moved (after checking them); answers how many checkpoints were made. */
  async run(): Promise<number> {
    let made = 0;
    try {
      for (const accountId of await this.checkpoints.accountsWithChains()) {
        const { made: checkpoint, check } = await this.checkpoints.checkpoint(accountId);
        if (check.broken)
          this.logger.warn(
            `no checkpoint for ${accountId}: the ${check.broken.chain} chain is broken at seq ${check.broken.seq ?? '-'}: ${check.broken.reason}`,
          );
        if (checkpoint) {
          made++;
          this.logger.log(
            `checkpoint for ${accountId}: seq ${checkpoint.seq} hash ${checkpoint.hash}, receipt seq ${checkpoint.receiptSeq} hash ${checkpoint.receiptHash}`,
          );
        }
      }
    } catch (error) {
      this.logger.warn(`audit checkpoint failed, will try again: ${(error as Error).message}`);
    }
    return made;
  }
}
