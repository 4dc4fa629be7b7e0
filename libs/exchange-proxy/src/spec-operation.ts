import { OPERATIONS, type OperationName } from '#libs/weex-client';

/** The number of each operation the gateway serves in the spec's endpoint table (contract-trading-interface.md). */
export const SPEC_NUMBERS = {
  allPositions: 2,
  income: 3,
  openOrders: 4,
  algoOrders: 5,
  orderInfo: 6,
  orderHistory: 7,
  userTrades: 8,
  symbolConfig: 9,
  spotBills: 10,
  cancelBatchOrders: 11,
  cancelPlan: 12,
} as const satisfies Partial<Record<OperationName, number>>;

/** How a description names an exchange operation: its number in the spec and its weights, read from OPERATIONS. */
export function specOperation(operation: keyof typeof SPEC_NUMBERS): string {
  const { ipWeight, uidWeight } = OPERATIONS[operation];
  return `Spec operation ${SPEC_NUMBERS[operation]} (${operation}; weight ${ipWeight} IP / ${uidWeight} UID)`;
}
