import { Controller, Get, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiAnswer, ApiEndpoint } from '#libs/api-docs';
import { HealthService, type Readiness } from '#libs/operations';

const EXCHANGE = { reachable: true, url: 'https://api-contract.weex.com', latencyMs: 84, offsetMs: -38, checkedAt: '2026-11-22T10:00:00.000Z' };
const CHECKS = { database: { ok: true, latencyMs: 2 }, queue: { ok: true, backend: 'redis' } };

/** For orchestrators and load balancers; no auth. */
@Controller('health')
@ApiTags('Health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @ApiEndpoint('Liveness', '200 while the process serves requests.')
  @ApiAnswer(200, 'Alive', { status: 'ok' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiEndpoint('Readiness', 'PostgreSQL answers and the queue store is connected. The exchange is reported, never decisive.')
  @ApiAnswer(200, 'Ready', { status: 'ready', checks: CHECKS, failed: [], exchange: EXCHANGE })
  @ApiResponse({
    status: 503,
    description: 'A check failed; `failed` names it',
    content: {
      'application/json': {
        example: { status: 'unready', checks: { ...CHECKS, database: { ok: false, latencyMs: 2000, error: 'PostgreSQL did not answer within 2000 ms' } }, failed: ['database'], exchange: EXCHANGE },
      },
    },
  })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const readiness = await this.health.readiness();
    if (readiness.status !== 'ready') void reply.status(503);
    return readiness;
  }
}
