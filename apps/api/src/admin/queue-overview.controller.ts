import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AdminAuthGuard } from '#libs/accounts';
import { ApiAdminController, ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import { expectNoQuery } from '#libs/http';
import { type QueueOverview, QueueOverviewService } from '#libs/operations';

const EXAMPLE = {
  queue: 'ai-log-upload',
  backend: 'redis',
  jobs: { waiting: 2, active: 8, delayed: 3, prioritized: 0, 'waiting-children': 0, completed: 0, failed: 0 },
  paused: false,
  logs: { queued: 2, uploading: 8, uploaded: 12890, retrying: 3, failed: 1 },
};

/** The upload queue at a glance (`/admin/queues`, plural, is left to the bull-board dashboard). */
@Controller('admin/queue')
@UseGuards(AdminAuthGuard)
@ApiAdminController('Admin: operations')
export class QueueOverviewController {
  constructor(private readonly overview: QueueOverviewService) {}

  @Get()
  @ApiEndpoint('Upload queue: BullMQ job counts and logs by status', 'PostgreSQL is the truth; `jobs` is null (with `jobsError`) while the queue store is away.')
  @ApiAnswer(200, 'Counts', EXAMPLE)
  @ApiErrors(400, 401)
  get(@Query() query: unknown): Promise<QueueOverview> {
    expectNoQuery(query);
    return this.overview.overview();
  }
}
