import { OPERATIONS, type OperationName } from '#libs/weex-client';

/** How a description names an exchange operation: its number in the spec and its weights, read from OPERATIONS. */
export function specOperation(operation: OperationName): string {
  const { spec, ipWeight, uidWeight } = OPERATIONS[operation] as { spec?: number; ipWeight: number; uidWeight: number };
  return `Spec operation ${spec} (${operation}; weight ${ipWeight} IP / ${uidWeight} UID)`;
}
