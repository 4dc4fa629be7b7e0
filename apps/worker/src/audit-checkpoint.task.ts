import { Injectable, Logger } from '@nestjs/common';
import { AuditChainCheck, AuditCheckpoints } from '#libs/audit';
import { GatewayConfig } from '#libs/config';

/**
 * How often the latest checkpoint goes again to witnesses that lack it: each one unreachable costs
 * AUDIT_WITNESS_TIMEOUT_MS of the check's loop, and each refusal an alert.
 */
const COSIGN_RETRY_MS = 60_000;

/**
 * The audit trail's periodic work. PeriodicJob.AuditCheck (every AUDIT_CHECK_INTERVAL_MS) checks each account's stored
 * chains a step further, AUDIT_CHECK_LINKS_PER_MIN for the time since the account's last run (AuditChainCheck: workers
 * take turns by lease, so several never check one account at once). PeriodicJob.AuditCheckpoint (every
 * AUDIT_CHECKPOINT_INTERVAL_MS) checks again and signs both chains' heads if they moved. Two runs at once may both sign
 * the same heads; that costs a duplicate row, never a wrong one. The checks also send the latest checkpoint to the
 * witnesses whose cosignature it lacks, at most once a minute per account.
 */
@Injectable()
export class AuditCheckpointTask {
  private readonly logger = new Logger(AuditCheckpointTask.name);
  /** When this worker last sent each account's latest checkpoint to the witnesses that lacked it. */
  private readonly cosignTried = new Map<string, number>();

  constructor(
    private readonly checkpoints: AuditCheckpoints,
    private readonly check: AuditChainCheck,
    private readonly config: GatewayConfig,
  ) {}

  /** Checks every account once; answers how many were found broken. */
  async checkAll(): Promise<number> {
    let broken = 0;
    try {
      for (const accountId of await this.checkpoints.accountsWithChains()) {
        if (!(await this.check.run(accountId, { linksPerMinute: this.config.auditCheckLinksPerMin })).ok) broken++;
        // A checkpoint whose witnesses were down, or that a crash left unsent, goes to them within a minute.
        if (Date.now() - (this.cosignTried.get(accountId) ?? 0) < COSIGN_RETRY_MS) continue;
        this.cosignTried.set(accountId, Date.now());
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
