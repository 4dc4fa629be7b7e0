import { All, Controller, Req, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { DisconnectSignal, RAW_BODY } from '#libs/http';
import { GatewayHopGuard, LLM_PROXY_PREFIX, LlmProxyService } from '#libs/model-calls';
import { AgentApi } from './controller-kinds.js';

/**
 * An OpenAI client's `base_url`: every method and path below /llm/openai/v1 goes to the account's model provider with
 * the account's key, and is recorded (LlmProxyService). The body is taken as the bytes that came (RAW_BODY), so that
 * the provider gets them exactly and their SHA-256 is theirs. An agent key with logs:write, as for posting logs.
 *
 * Not in the OpenAPI document: what these paths serve is the provider's API, which the provider's own document
 * describes, and a catch-all path has no schema of ours to give. GET /v1/model-calls documents what is recorded.
 */
@Controller(LLM_PROXY_PREFIX.slice(1))
@AgentApi('Model calls', 'logs:write')
// Below AgentApi, so that it runs before the key check (class decorators apply from the bottom up).
@UseGuards(GatewayHopGuard)
@ApiExcludeController()
export class LlmProxyController {
  constructor(private readonly proxy: LlmProxyService) {}

  @All('*')
  @RouteConfig(RAW_BODY)
  forwardModelCall(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Agent() agent: AgentIdentity,
    @DisconnectSignal() agentGone: AbortSignal,
  ): Promise<void> {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    return this.proxy.forward({ method: req.method, path: req.url.slice(LLM_PROXY_PREFIX.length), headers: req.headers, body }, agent, reply, agentGone);
  }
}
