import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { LlmGatewayException } from './llm-gateway.exception.js';
import { GATEWAY_HOP } from './upstream-call.js';

/**
 * Refuses a call that came from a gateway (the account's provider URL leads back to one) before its key is checked:
 * the key it carries is the provider key, so a 401 about it would reach an agent that never sent that key.
 */
@Injectable()
export class GatewayHopGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<FastifyRequest>().headers[GATEWAY_HOP] === undefined) return true;
    throw new LlmGatewayException('LLM_UPSTREAM_LOOP', "this call came from a gateway: the account's provider URL leads back to a gateway");
  }
}
