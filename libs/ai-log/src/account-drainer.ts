import { Injectable, Logger } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { BudgetWaitTooLong, uploadAiLogOperation, type WeexClient, type WeightGrant } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { AiLogUploader } from './ai-log-uploader.js';
import { AiLogRepository, type Claim, type DuePosition } from './ai-log.repository.js';
import { UploadLeases } from './upload-leases.js';
import { UploadWakeups } from './upload-wakeups.js';

/** The longest run of a drainer: accounts waiting for a worker's slot take turns at least this often. */
const SLICE_MS = 1_000;
/** How long an account whose credentials this process cannot read waits (every process reads new ones within 10 s). */
const CREDENTIALS_WAIT_MS = 10_000;

/** Why a run ended. */
type Stop = 'drained' | 'paused' | 'budget' | 'slice' | 'shutdown' | 'error';

/** One run of one account's drainer: what its lanes share. */
class DrainRun {
  readonly deadline = Date.now() + SLICE_MS;
  stopped?: Stop;
  budgetWaitMs = 0;
  uploaded = 0;
  error?: unknown;
  /** The latest of the run's claims in the account's due order: the next claim looks past it first. */
  floor?: DuePosition;

  constructor(
    readonly accountId: string,
    readonly client: WeexClient,
    readonly shutdown: AbortSignal,
  ) {}

  over(): boolean {
    if (this.stopped === undefined && this.shutdown.aborted) this.stopped = 'shutdown';
    if (this.stopped === undefined && Date.now() >= this.deadline) this.stopped = 'slice';
    return this.stopped !== undefined;
  }

  stop(why: Stop): void {
    this.stopped ??= why;
  }
}

/**
 * Uploads one account's due logs from PostgreSQL, oldest due first, as fast as the account's weight budget allows:
 * each of up to UPLOAD_CONCURRENCY lanes takes an upload's weight, then claims a log, then sends it, so that a
 * lane waiting for the budget holds no log, and a crash costs only the requests in flight. A run lasts at most one
 * slice; the account is then woken again (UploadWakeups): now when it has more due, when the budget frees up, or
 * when its next retry is due.
 */
@Injectable()
export class AccountDrainer {
  private readonly logger = new Logger(AccountDrainer.name);

  constructor(
    private readonly repository: AiLogRepository,
    private readonly uploader: AiLogUploader,
    private readonly clients: WeexAccountClients,
    private readonly wakeups: UploadWakeups,
    private readonly leases: UploadLeases,
    private readonly config: GatewayConfig,
  ) {}

  /** Drains the account for one slice, or until `shutdown` (in-flight uploads finish and are recorded); says how many were uploaded. */
  async drain(accountId: string, shutdown: AbortSignal): Promise<number> {
    const client = await this.clients.resolve(accountId);
    if (!client) return this.waitForCredentials(accountId);
    const run = new DrainRun(accountId, client, shutdown);
    // Lanes start one at a time, each when the one before it found a log: a lone log costs one lane's claims.
    const lanes: Array<Promise<void>> = [];
    const addLane = () => {
      if (lanes.length < this.config.uploadConcurrency) lanes.push(this.lane(run, addLane));
    };
    addLane();
    for (let i = 0; i < lanes.length; i++) await lanes[i];
    if (run.error !== undefined) throw run.error;
    await this.wakeAgain(run);
    return run.uploaded;
  }

  private async lane(run: DrainRun, addLane: () => void): Promise<void> {
    try {
      while (!run.over()) {
        const weight = await this.takeWeight(run);
        if (!weight) return;
        // Weight in hand is spent, even when another lane found the budget spent or the slice ended meanwhile, unless
        // the run is stopping: then it goes back to its bucket, for the other processes.
        if (run.stopped === 'shutdown' || run.stopped === 'error' || run.stopped === 'paused' || run.shutdown.aborted) return await weight.giveBack();
        const claim = await this.claim(run).catch(async (error: unknown) => {
          await weight.giveBack();
          throw error;
        });
        if (!claim.log) {
          run.stop(claim.paused ? 'paused' : 'drained');
          return await weight.giveBack();
        }
        addLane();
        const log = claim.log;
        const result = await this.leases.whileHeld(log, () => this.uploader.send(log, run.client, weight));
        if (result.status === 'uploaded') run.uploaded++;
        if (result.status === 'held') run.stop('paused');
      }
    } catch (error) {
      run.error ??= error;
      run.stop('error');
    }
  }

  /**
   * Claims the account's next due log past the run's floor, or from the start of its due logs when none is past it (a
   * log due earlier may have come in since: a retry, a lapsed claim, a late commit). The entries a claim skips this way
   * are the ones earlier claims left dead in the index until VACUUM: each run walks them at most twice, not per claim.
   */
  private async claim(run: DrainRun): Promise<Claim> {
    const claimMs = this.config.uploadClaimMs;
    let claim = await this.repository.claimNext(run.accountId, claimMs, run.floor);
    if (!claim.log && !claim.paused && run.floor) {
      run.floor = undefined;
      claim = await this.repository.claimNext(run.accountId, claimMs);
    }
    const log = claim.log;
    if (log && (!run.floor || compareDue(log, run.floor) > 0)) run.floor = { nextAttemptAt: log.nextAttemptAt, id: log.id };
    return claim;
  }

  /** An upload's weight, waiting for it within the slice; undefined when the budget holds it back longer, or on shutdown. */
  private async takeWeight(run: DrainRun): Promise<WeightGrant | undefined> {
    const operation = uploadAiLogOperation(this.config.weexUploadApiVersion);
    try {
      return await run.client.takeWeight(operation, { signal: run.shutdown, maxBudgetWaitMs: Math.max(0, run.deadline - Date.now()) });
    } catch (error) {
      if (error instanceof BudgetWaitTooLong) {
        run.budgetWaitMs = Math.max(run.budgetWaitMs, error.waitMs);
        run.stop('budget');
        return undefined;
      }
      if (run.shutdown.aborted) return undefined;
      throw error;
    }
  }

  /** Schedules the account's next run, if it will have one. */
  private async wakeAgain(run: DrainRun): Promise<void> {
    const { accountId } = run;
    if (run.stopped === 'paused') return; // a resume wakes it
    if (run.stopped === 'budget') return this.wakeups.wake([accountId], run.budgetWaitMs);
    if (run.stopped === 'slice') return this.wakeups.wake([accountId]);
    const inMs = await this.nextDueIn(accountId);
    if (inMs === undefined) return;
    await this.wakeups.wake([accountId], inMs);
    // A wake-up sent for a log committed after the look above was kept for after this run, and this later one has
    // just taken its place: look again, so that such a log is not left waiting for the later one.
    if (inMs > 0 && (await this.nextDueIn(accountId)) === 0) await this.wakeups.wake([accountId]);
  }

  private async waitForCredentials(accountId: string): Promise<number> {
    const inMs = await this.nextDueIn(accountId);
    if (inMs === undefined) return 0;
    this.logger.warn(`account ${accountId}: logs wait, no exchange credentials for it in this process`);
    await this.wakeups.wake([accountId], Math.max(inMs, CREDENTIALS_WAIT_MS));
    return 0;
  }

  /** How soon the account's next waiting log is due (0: now); undefined when none waits. */
  private async nextDueIn(accountId: string): Promise<number | undefined> {
    const at = await this.repository.nextDueAt(accountId);
    return at === null ? undefined : Math.max(0, at.getTime() - Date.now());
  }
}

/** The due order of two logs, as the index holds it: next_attempt_at, then id (a UUID's text sorts as its bytes). */
function compareDue(a: DuePosition, b: DuePosition): number {
  return a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
