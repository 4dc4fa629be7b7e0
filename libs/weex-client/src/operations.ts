/** Which host an operation lives on: the contract REST host, or the spot host (spot bills only). */
export type WeexHost = 'contract' | 'spot';

export interface WeexOperation {
  method: 'GET' | 'POST';
  path: string;
  host: WeexHost;
  /** Weight charged against the per-IP budget. */
  ipWeight: number;
  /** Weight charged against the per-UID (account) budget. */
  uidWeight: number;
  /** Whether the exchange changes state: writes are never retried blindly. */
  write: boolean;
}

/**
 * Every operation of the interface spec (contract-trading-interface.md, endpoint table) plus server time and exchange
 * info. The one table both the client and the simulator read paths and weights from.
 */
export const OPERATIONS = {
  uploadAiLog: { method: 'POST', path: '/capi/v3/order/uploadAiLog', host: 'contract', ipWeight: 1, uidWeight: 1, write: true },
  uploadAiLogV2: { method: 'POST', path: '/capi/v2/order/uploadAiLog', host: 'contract', ipWeight: 1, uidWeight: 1, write: true },
  allPositions: { method: 'GET', path: '/capi/v3/account/position/allPosition', host: 'contract', ipWeight: 10, uidWeight: 15, write: false },
  income: { method: 'POST', path: '/capi/v3/account/income', host: 'contract', ipWeight: 2, uidWeight: 5, write: false },
  openOrders: { method: 'GET', path: '/capi/v3/openOrders', host: 'contract', ipWeight: 2, uidWeight: 3, write: false },
  algoOrders: { method: 'GET', path: '/capi/v3/allAlgoOrders', host: 'contract', ipWeight: 5, uidWeight: 10, write: false },
  orderInfo: { method: 'GET', path: '/capi/v3/order', host: 'contract', ipWeight: 2, uidWeight: 3, write: false },
  orderHistory: { method: 'GET', path: '/capi/v3/order/history', host: 'contract', ipWeight: 10, uidWeight: 10, write: false },
  userTrades: { method: 'GET', path: '/capi/v3/userTrades', host: 'contract', ipWeight: 5, uidWeight: 5, write: false },
  symbolConfig: { method: 'GET', path: '/capi/v3/account/symbolConfig', host: 'contract', ipWeight: 5, uidWeight: 10, write: false },
  spotBills: { method: 'POST', path: '/api/v3/account/bills', host: 'spot', ipWeight: 5, uidWeight: 5, write: false },
  cancelBatchOrders: { method: 'POST', path: '/capi/v2/order/cancel_batch_orders', host: 'contract', ipWeight: 5, uidWeight: 10, write: true },
  cancelPlan: { method: 'POST', path: '/capi/v2/order/cancel_plan', host: 'contract', ipWeight: 2, uidWeight: 3, write: true },
  // Not in the spec's table; public and unsigned. Weights are a guess [G] and cheap to change here.
  serverTime: { method: 'GET', path: '/capi/v3/market/time', host: 'contract', ipWeight: 1, uidWeight: 0, write: false },
  exchangeInfo: { method: 'GET', path: '/capi/v3/market/exchangeInfo', host: 'contract', ipWeight: 1, uidWeight: 0, write: false },
} as const satisfies Record<string, WeexOperation>;

export type OperationName = keyof typeof OPERATIONS;
