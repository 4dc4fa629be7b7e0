import type { FastifyRequest } from 'fastify';

/** Simulator-only header (WEEX knows none such): a test sets it to act as another caller IP. */
export const CLIENT_IP_HEADER = 'x-sim-client-ip';

/** The IP a request's weight is charged to: {@link CLIENT_IP_HEADER} when present, else the socket's address. */
export function clientIpOf(req: FastifyRequest): string {
  const claimed = req.headers[CLIENT_IP_HEADER];
  return typeof claimed === 'string' && claimed !== '' ? claimed : req.ip;
}
