import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { attemptTarget } from './ai-log-uploader.js';
import { AiLogRepository } from './ai-log.repository.js';
import { UploadWakeups } from './upload-wakeups.js';

/**
 * The transactional outbox's relay: PostgreSQL says which logs are due, the queue only wakes the accounts' drainers.
 * A sweep ends the claims of workers that died (their attempts `uncertain`) and wakes every account, not paused, with
 * a log due: one wake-up per account however many logs it has, which the queue ignores while the account already has
 * one waiting or scheduled (a drainer waiting for its budget's next window is not woken early). So a wake-up lost to a
 * Redis outage, FLUSHALL, a failed enqueue or a dead worker costs one sweep; every worker may run it.
 */
@Injectable()
export class AiLogRelay {
  constructor(
    private readonly repository: AiLogRepository,
    private readonly wakeups: UploadWakeups,
    private readonly config: GatewayConfig,
  ) {}

  /** Wakes the accounts with a log due before `now - graceMs`, or with a claim that lapsed; returns how many. */
  async wakeDue(graceMs: number): Promise<number> {
    const recovered = await this.repository.recoverLapsedClaims(attemptTarget(false, this.config));
    const due = await this.repository.accountsWithDueLogs(new Date(Date.now() - graceMs));
    const accounts = [...new Set([...recovered, ...due])];
    await this.wakeups.wake(accounts, 0, false);
    return accounts.length;
  }
}
