import { HttpException, Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import type { AgentIdentity } from './accounts.repository.js';
import { AgentRateLimiter } from './agent-rate-limiter.js';

/** Where a 429's Retry-After goes: Fastify's reply, as the guard and the handlers see it. */
export interface ReplyHeaders {
  header(name: string, value: string): unknown;
}

/**
 * What the per-agent limit counts: each log counts one, and each request to any other endpoint counts one. The guard
 * counts every request as one (AgentAuthGuard); a batch counts its other logs here, once its body is read and before
 * anything is committed.
 */
@Injectable()
export class AgentQuota {
  constructor(
    private readonly limiter: AgentRateLimiter,
    private readonly config: GatewayConfig,
  ) {}

  /**
   * A batch's logs beyond the one its request counted. A batch that does not fit is refused whole (429 with
   * Retry-After, nothing counted for its logs), and one larger than the key's whole limit with no Retry-After.
   */
  async chargeBatch(agent: AgentIdentity, logs: number, reply: ReplyHeaders): Promise<void> {
    const limit = agent.rateLimitPerMin ?? this.config.agentRateLimitPerMin;
    if (limit === 0 || logs <= 1) return;
    if (logs > limit) {
      const message = `a batch of ${logs} logs is more than this agent key may send in a minute (${limit} logs); send at most ${limit} at a time`;
      throw new HttpException({ code: 'RATE_LIMITED', message }, 429);
    }
    const waitMs = await this.limiter.take(agent.agentKeyId, agent.rateLimitPerMin, logs - 1);
    if (waitMs !== undefined) throw rateLimited(reply, waitMs, `this batch of ${logs} logs would take this agent key over its limit of ${limit} logs a minute`);
  }
}

/** 429 RATE_LIMITED, with Retry-After set on the reply: the key may send again in `waitMs`. */
export function rateLimited(reply: ReplyHeaders, waitMs: number, reason: string): HttpException {
  const seconds = Math.ceil(waitMs / 1000);
  reply.header('Retry-After', String(seconds));
  return new HttpException({ code: 'RATE_LIMITED', message: `${reason}; retry in ${seconds} s` }, 429);
}
