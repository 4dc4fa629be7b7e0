import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { MetricsService } from '#libs/operations';

/**
 * Prometheus scrape endpoint; no auth, so keep it off the public network. Not part of the JSON API's document: its
 * series are listed in the README (Operations).
 */
@Controller('metrics')
@ApiExcludeController()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = await this.metrics.render();
    void reply.header('content-type', this.metrics.contentType);
    return text;
  }
}
