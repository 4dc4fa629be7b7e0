import { Controller, Get, Query } from '@nestjs/common';
import { ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import { NoQueryDto } from '#libs/http';
import { type QueueOverview, QueueOverviewService } from '#libs/admin';
import { AdminApi } from '../controller-kinds.js';
import { QueueOverviewDto } from './admin.responses.js';

const EXAMPLE = {
  queue: 'ai-log-upload',
  backend: 'redis',
  jobs: { waiting: 2, active: 8, delayed: 3, prioritized: 0, 'waiting-children': 0, completed: 0, failed: 0 },
  paused: false,
  logs: { queued: 2, uploading: 8, uploaded: 12890, retrying: 3, failed: 1 },
};

/** The upload queue at a glance (`/admin/queues`, plural, is left to the bull-board dashboard). */
@Controller('admin/queue')
@AdminApi('Admin: operations')
export class QueueOverviewController {
  constructor(private readonly overview: QueueOverviewService) {}

  @Get()
  @ApiEndpoint(
    'Upload queue: BullMQ job counts and logs by status',
    'PostgreSQL is the truth; `jobs` is null (with `jobsError`) while the queue store is away.',
  )
  @ApiAnswer(200, 'Counts', QueueOverviewDto, EXAMPLE)
  @ApiErrors(400)
  getQueueOverview(@Query() _query: NoQueryDto): Promise<QueueOverview> {
    return this.overview.overview();
  }
}
