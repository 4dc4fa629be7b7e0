import type { IncomingMessage } from 'node:http';
import type { ChargedOperation } from './operation-lookup.js';

/** What the edge charged a request to its caller IP, so the UID check can take it back if it refuses. */
export interface RequestCharge {
  ip: string;
  operation: ChargedOperation;
}

const charges = new WeakMap<IncomingMessage, RequestCharge>();

export function rememberCharge(req: IncomingMessage, charge: RequestCharge): void {
  charges.set(req, charge);
}

export function chargeOf(req: IncomingMessage): RequestCharge | undefined {
  return charges.get(req);
}
