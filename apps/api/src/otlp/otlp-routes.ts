import { HttpException, Injectable, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GatewayConfig } from '#libs/config';
import { HttpExceptionFilter } from '#libs/http';
import { sendOtlpStatus } from './otlp-status.js';

/** Where the OTLP/HTTP receiver is mounted: `OTEL_EXPORTER_OTLP_ENDPOINT=<gateway>/otlp`. */
export const OTLP_PREFIX = '/otlp/';
const TRACES = `${OTLP_PREFIX}v1/traces`;

/**
 * Gives the OTLP routes their body limit (OTLP_BODY_LIMIT_BYTES) and an error handler of their own, for what fails
 * before Nest's filters see the request (the body limit, an unknown Content-Type, a large body's unknown key): Fastify
 * answers those, and OTLP wants them as a Status. The hooks are added as the module is built, before the routes are.
 */
@Injectable()
export class OtlpRoutes {
  constructor(adapterHost: HttpAdapterHost, config: GatewayConfig) {
    const fastify = adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    const errors = new HttpExceptionFilter();
    fastify?.addHook('onRoute', (route) => {
      if (!route.url.startsWith(OTLP_PREFIX)) return;
      route.bodyLimit = config.otlpBodyLimitBytes;
      route.errorHandler = (error, request, reply) => sendOtlpStatus(errors, error, request, reply, config.otlpBodyLimitBytes);
    });
    // A path or method under /otlp that no route takes is answered as a Status before its body is read (reading it
    // would make it a 415 about its Content-Type): an exporter of metrics or logs learns that only traces come here.
    fastify?.addHook('onRequest', (request, reply, done) => {
      if (!request.is404 || !request.url.startsWith(OTLP_PREFIX)) return done();
      const path = request.url.split('?')[0];
      if (path === TRACES) reply.header('allow', 'POST');
      const error =
        path === TRACES
          ? new HttpException({ code: 'METHOD_NOT_ALLOWED', message: `${TRACES} takes POST, not ${request.method}` }, 405)
          : new NotFoundException({ code: 'NOT_FOUND', message: `no OTLP receiver at ${path.slice(0, 200)}: only traces are taken, at ${TRACES}` });
      sendOtlpStatus(errors, error, request, reply, config.otlpBodyLimitBytes);
    });
  }
}
