import type { Weight } from '#libs/weight-budget';
import { OPERATIONS, type OperationName } from './operations.js';

export { BudgetWaitTooLong, type BudgetLimits, type BudgetUsage, type WeightBudget, type WeightGrant, type WindowUsage } from '#libs/weight-budget';

/** The weights an operation costs. */
export function weightOf(operation: OperationName): Weight {
  const { ipWeight, uidWeight } = OPERATIONS[operation];
  return { ip: ipWeight, uid: uidWeight };
}

/** The weights of the heaviest operation, IP and UID: what every budget's limits must hold. */
export const HEAVIEST_WEIGHT: Readonly<Weight> = {
  ip: Math.max(...Object.values(OPERATIONS).map((op) => op.ipWeight)),
  uid: Math.max(...Object.values(OPERATIONS).map((op) => op.uidWeight)),
};
