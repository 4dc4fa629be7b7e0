import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The address wrong admin tokens are counted by: the client's, from X-Forwarded-For when the connection comes from a
 * proxy named in TRUST_PROXY; the connection's own when that header's entry is not an IP address, so that a made-up
 * value never gets a counter of its own.
 */
export function clientAddress(request: FastifyRequest): string {
  return isIP(request.ip) ? request.ip : (request.socket.remoteAddress ?? 'unknown');
}
