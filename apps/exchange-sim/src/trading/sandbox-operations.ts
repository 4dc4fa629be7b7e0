/** An endpoint the sandbox serves beyond the spec's operations, with its weights. */
export interface SandboxOperation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  ipWeight: number;
  uidWeight: number;
}

/**
 * The contract trading endpoints of ccxt's weex (weex.js api.contractPrivate). Their weights are ccxt's `cost`s,
 * which match the spec's UID weights where both list an endpoint; as IP weight too [G].
 */
export const SANDBOX_OPERATIONS = {
  placeOrder: op('POST', '/capi/v3/order', 5),
  cancelOrder: op('DELETE', '/capi/v3/order', 3),
  cancelBatch: op('DELETE', '/capi/v3/batchOrders', 10),
  cancelAll: op('DELETE', '/capi/v3/allOpenOrders', 10),
  placePlan: op('POST', '/capi/v3/algoOrder', 5),
  cancelPlan: op('DELETE', '/capi/v3/algoOrder', 3),
  cancelAllPlans: op('DELETE', '/capi/v3/algoOpenOrders', 10),
  openPlans: op('GET', '/capi/v3/openAlgoOrders', 3),
  balance: op('GET', '/capi/v3/account/balance', 10),
  singlePosition: op('GET', '/capi/v3/account/position/singlePosition', 3),
  commissionRate: op('GET', '/capi/v3/account/commissionRate', 10),
} as const satisfies Record<string, SandboxOperation>;

function op(method: SandboxOperation['method'], path: string, weight: number): SandboxOperation {
  return { method, path, ipWeight: weight, uidWeight: weight };
}
