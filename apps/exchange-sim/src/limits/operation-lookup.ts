import { OPERATIONS } from '#libs/weex-client';
import { SANDBOX_OPERATIONS } from '../trading/sandbox-operations.js';

/** What the budgets charge a request. */
export interface ChargedOperation {
  ipWeight: number;
  uidWeight: number;
}

const BY_ROUTE = byRoute([...Object.values(OPERATIONS), ...Object.values(SANDBOX_OPERATIONS)]);

/**
 * The two tables (the spec's operations, and the sandbox's trading ones ccxt calls) by method and path. A route in
 * both would be charged by whichever came last and fail only when Fastify registers it twice: refused here, at load.
 */
export function byRoute(operations: Array<ChargedOperation & { method: string; path: string }>): Map<string, ChargedOperation> {
  const routes = new Map<string, ChargedOperation>();
  for (const op of operations) {
    const key = routeKey(op.method, op.path);
    if (routes.has(key)) throw new Error(`${key} is declared twice: in OPERATIONS (libs/weex-client) and SANDBOX_OPERATIONS, or twice in one`);
    routes.set(key, op);
  }
  return routes;
}

/** The operation a request calls, by method and path (query ignored); undefined for paths outside the tables. */
export function findOperation(method: string, url: string): ChargedOperation | undefined {
  return BY_ROUTE.get(routeKey(method, pathOf(url)));
}

export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

/** Control and inspection paths: no budgets, no faults, no usage headers. */
export function isSimulatorPath(url: string): boolean {
  return url === '/__sim' || url.startsWith('/__sim/') || url.startsWith('/__sim?');
}

function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
