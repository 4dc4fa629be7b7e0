import { Injectable, Logger } from '@nestjs/common';
import { AccountPausesRepository } from '#libs/accounts';
import { WeexApiError } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { IP_NOT_ALLOWLISTED } from './ai-log-uploader.js';
import { AiLogRepository } from './ai-log.repository.js';
import { UploadWakeups } from './upload-wakeups.js';

const PROBE_TIMEOUT_MS = 5_000;

/**
 * Resumes accounts whose uploads are held because WEEX's edge refused this server's IP (HTTP 521), once a signed read
 * of theirs gets through: `openOrders` with limit 1 (2 IP / 3 UID weight), which changes nothing at the exchange,
 * where a probe upload would send a log. Any answer of the exchange itself, even a refusal, means the edge let the
 * request through; another 521, or no answer, keeps the hold.
 */
@Injectable()
export class UploadHoldProbe {
  private readonly logger = new Logger(UploadHoldProbe.name);

  constructor(
    private readonly repository: AiLogRepository,
    private readonly pauses: AccountPausesRepository,
    private readonly clients: WeexAccountClients,
    private readonly wakeups: UploadWakeups,
  ) {}

  /** Probes every held account once; returns the accounts it resumed. */
  async probe(): Promise<string[]> {
    const resumed: string[] = [];
    for (const accountId of await this.pauses.accountsHeldFor(IP_NOT_ALLOWLISTED)) {
      if (!(await this.answers(accountId))) continue;
      if (!(await this.pauses.releaseHold(accountId, IP_NOT_ALLOWLISTED))) continue; // an admin resumed or paused it meanwhile
      const retries = await this.repository.retriesDueNow(accountId);
      await this.wakeups.wake([accountId]);
      this.logger.log(`account ${accountId}: the exchange answers this server's IP again; uploads resumed (${retries} retries in backoff due now)`);
      resumed.push(accountId);
    }
    return resumed;
  }

  private async answers(accountId: string): Promise<boolean> {
    const client = await this.clients.resolve(accountId);
    if (!client) return false;
    try {
      await client.openOrders({ limit: 1 }, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      return true;
    } catch (error) {
      return error instanceof WeexApiError && error.httpStatus !== undefined && error.httpStatus !== 521;
    }
  }
}
