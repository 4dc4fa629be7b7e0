import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GatewayConfig } from '#libs/config';
import { LLM_PROXY_PREFIX } from './llm-proxy.service.js';

/**
 * Gives the proxy's routes a body limit of their own, LLM_BODY_LIMIT_BYTES (a chat request with images outgrows the
 * API's 1 MiB). Nest's route decorators cannot set Fastify's `bodyLimit`, so this sets it as Fastify registers the
 * route: the hook is added when the module is built, before the app's routes are.
 */
@Injectable()
export class LlmBodyLimit {
  constructor(adapterHost: HttpAdapterHost, config: GatewayConfig) {
    const fastify = adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    fastify?.addHook('onRoute', (route) => {
      if (!route.url.startsWith(`${LLM_PROXY_PREFIX}/`)) return;
      route.bodyLimit = config.llmBodyLimitBytes;
      route.config = { ...route.config, bodyLimitSetting: 'LLM_BODY_LIMIT_BYTES' };
    });
  }
}
