import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * This process's own metrics, counted as they happen: prom-client's default process and Node.js series (CPU, memory,
 * event-loop lag, GC, handles) and the duration of every HTTP request by route, method and status. They live in a
 * registry of their own because MetricsService resets its registry at each scrape to refill it from PostgreSQL, which
 * would zero these counters. Unlike those, these are per process: aggregate API replicas with sum.
 */
@Injectable()
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests this process answered, by method, route template (`unmatched` for unknown paths) and status code, and how long each took.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Times every request the server answers from now on. Call before the app is initialised. */
  timeRequests(fastify: FastifyInstance): void {
    // A callback hook: it runs for every answer, and needs no promise. Route templates, not paths, keep the label
    // set bounded whatever paths clients try.
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const method = KNOWN_METHODS.has(request.method) ? request.method : 'other';
      this.requests.observe({ method, route, status_code: reply.statusCode }, reply.elapsedTime / 1000);
      done();
    });
  }
}
