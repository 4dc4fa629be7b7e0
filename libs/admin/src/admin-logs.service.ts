import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { AdminLogsRepository, AiLogRepository } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';
import { decodeCursor, encodeCursor, toLogFilter } from './log-filter.js';
import { type AccountLogsQueryDto, DEFAULT_PAGE, type ListLogsQueryDto, type LogFilterDto } from './log-query.dto.js';
import { type AdminLogSummary, type AdminLogView, toAdminLogSummary, toAdminLogView } from './admin-log.view.js';
import { DueLogsQueue } from './due-logs-queue.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Logs of every account for admins: find them, read their history, retry the failed ones. */
@Injectable()
export class AdminLogsService {
  constructor(
    private readonly logs: AdminLogsRepository,
    private readonly aiLogs: AiLogRepository,
    private readonly queue: DueLogsQueue,
    private readonly config: GatewayConfig,
  ) {}

  async list(query: ListLogsQueryDto): Promise<{ data: AdminLogSummary[]; nextCursor: string | null }> {
    const filter = toLogFilter(query);
    const limit = query.limit ?? DEFAULT_PAGE;
    // One more than asked for says whether there is a next page.
    const rows = await this.logs.list(filter, limit + 1, query.cursor === undefined ? undefined : decodeCursor(query.cursor));
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { data: page.map(toAdminLogSummary), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  /** One account's logs, as `list` answers them: the agents' own `GET /v1/ai-logs` and the console. */
  listAccount(accountId: string, query: AccountLogsQueryDto): Promise<{ data: AdminLogSummary[]; nextCursor: string | null }> {
    return this.list({ ...query, accountId });
  }

  async get(id: string): Promise<AdminLogView> {
    const log = UUID.test(id) ? await this.logs.find(id) : null;
    if (!log) throw new NotFoundException(`no AI log ${id}`);
    return toAdminLogView(log, this.config.sandbox ? 'simulator' : 'exchange');
  }

  /**
   * A failed log goes back to `queued`, due now, and its account's drainer is woken. Its retry horizon starts again
   * from the retry (`retried_at`; `received_at` keeps recording when the agent's log arrived).
   */
  async retry(id: string): Promise<{ id: string; status: 'queued' }> {
    if (!UUID.test(id)) throw new NotFoundException(`no AI log ${id}`);
    const logs = await this.aiLogs.requeueFailed({ id });
    if (logs.length === 0) {
      const status = await this.logs.status(id);
      if (!status) throw new NotFoundException(`no AI log ${id}`);
      throw new ConflictException(`AI log ${id} is ${status}; only a failed log can be retried`);
    }
    await this.queue.wake(logs.map((log) => log.accountId));
    return { id, status: 'queued' };
  }

  /** Every failed log that matches the filter, as `retry` does one; says how many. */
  async retryMatching(dto: LogFilterDto): Promise<{ retried: number }> {
    const { accountId, receivedFrom, receivedBefore, errorContains } = toLogFilter(dto);
    const logs = await this.aiLogs.requeueFailed({ accountId, receivedFrom, receivedBefore, errorContains });
    await this.queue.wake([...new Set(logs.map((log) => log.accountId))]);
    return { retried: logs.length };
  }
}
