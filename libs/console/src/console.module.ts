import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ConsoleAssets } from './console-assets.js';
import { ConsoleController } from './console.controller.js';

/** The browser console at GET /console, built by scripts/build-console.mjs and served from memory. */
@Module({ controllers: [ConsoleController], providers: [ConsoleAssets] })
export class ConsoleModule implements OnModuleInit {
  constructor(private readonly adapter: HttpAdapterHost) {}

  /** `/console/` (a typed or pasted link) goes to `/console`: Nest drops a route's trailing slash, so Fastify routes it. */
  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/console/', (_request, reply) => reply.redirect('/console', 308));
  }
}
