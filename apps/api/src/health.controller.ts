import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { HealthService, type Readiness } from '#libs/admin';
import { PublicApi } from './controller-kinds.js';
import { LivenessDto, ReadinessDto } from './health.responses.js';

const EXCHANGE = { reachable: true, url: 'https://api-contract.weex.com', latencyMs: 84, offsetMs: -38, checkedAt: '2026-11-22T10:00:00.000Z' };
const CHECKS = { database: { ok: true, latencyMs: 2 }, queue: { ok: true, backend: 'redis' } };

/** For orchestrators and load balancers; no auth. */
@Controller('health')
@PublicApi('Health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @ApiEndpoint('Liveness', '200 while the process serves requests.')
  @ApiAnswer(200, 'Alive', LivenessDto, { status: 'ok' })
  getLiveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiEndpoint('Readiness', 'PostgreSQL answers and the queue store is connected. The exchange is reported, never decisive.')
  @ApiAnswer(200, 'Ready', ReadinessDto, { status: 'ready', checks: CHECKS, failed: [], exchange: EXCHANGE })
  @ApiAnswer(503, 'A check failed; `failed` names it', ReadinessDto, {
    status: 'unready',
    checks: { ...CHECKS, database: { ok: false, latencyMs: 2000, error: 'PostgreSQL did not answer within 2000 ms' } },
    failed: ['database'],
    exchange: EXCHANGE,
  })
  async getReadiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const readiness = await this.health.readiness();
    if (readiness.status !== 'ready') void reply.status(503);
    return readiness;
  }
}
