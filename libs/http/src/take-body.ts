/**
 * The request's parsed body, which the request then no longer holds. Fastify keeps `request.body` until the answer is
 * sent; an ingest handler waits for a commit meanwhile, and every scavenge copies the bodies still held (with 100-log
 * batches, a third of the garbage collector's time). Read anything else the handler needs of the body first.
 */
export function takeBody(request: { body?: unknown }): unknown {
  const { body } = request;
  request.body = undefined;
  return body;
}
