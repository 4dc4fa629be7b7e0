import { OPERATIONS } from '#libs/weex-client';
import { SANDBOX_OPERATIONS } from '../trading/sandbox-operations.js';

/** What the budgets charge a request. */
export interface ChargedOperation {
  ipWeight: number;
  uidWeight: number;
}

const BY_ROUTE = new Map<string, ChargedOperation>(
  [...Object.values(OPERATIONS), ...Object.values(SANDBOX_OPERATIONS)].map((op) => [routeKey(op.method, op.path), op]),
);

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
