import type { SimIncome, SimPosition, SimSpotBill, SimSymbolConfig } from './account-records.js';
import type { SimOrder, SimPlanOrder, SimTrade } from './order-records.js';

/** Everything one account holds on the exchange; endpoints read it and the cancel operations change it. */
export interface AccountData {
  positions: SimPosition[];
  symbolConfigs: SimSymbolConfig[];
  /** Open and final orders together; the status tells which. */
  orders: SimOrder[];
  planOrders: SimPlanOrder[];
  trades: SimTrade[];
  income: SimIncome[];
  spotBills: SimSpotBill[];
}

export type AccountDataKind = keyof AccountData;

export const ACCOUNT_DATA_KINDS: readonly AccountDataKind[] = ['positions', 'symbolConfigs', 'orders', 'planOrders', 'trades', 'income', 'spotBills'];

/**
 * Records a user supplies (seed file or `SimAccountSeed.data`): each record may omit fields, which are generated;
 * a kind left out is generated whole. Values are converted to the spec's types (IDs to bigint, amounts to strings).
 */
export type AccountDataSeed = { [K in AccountDataKind]?: Record<string, unknown>[] };
