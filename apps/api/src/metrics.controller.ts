import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiEndpoint, ApiTextAnswer } from '#libs/api-docs';
import { MetricsService } from '#libs/admin';
import { PublicApi } from './controller-kinds.js';

/** Prometheus scrape endpoint; no auth, so keep it off the public network. Its series are listed in the README (Operations). */
@Controller('metrics')
@PublicApi('Metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @ApiEndpoint(
    'Prometheus metrics',
    'The Prometheus text format; no auth, so serve it on an internal network only. The series are listed in the README (Operations).',
  )
  @ApiTextAnswer('The series', { 'text/plain': '# TYPE gateway_ai_logs gauge\ngateway_ai_logs{account="default",status="queued"} 0\n' })
  async getMetrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = await this.metrics.render();
    void reply.header('content-type', this.metrics.contentType);
    return text;
  }
}
