import type { components } from './schema.js';

/** An exchange order ID: a bigint or a string of digits, or a number only while it is a safe integer. */
export type OrderId = bigint | string | number;

type Body = components['schemas']['CreateAiLogDto'];
type Filled = 'model' | 'input' | 'output' | 'explanation';

/**
 * One decision to log: the gateway's `CreateAiLogDto`, with an order ID that stays exact whatever its size. Either
 * model, input, output and explanation are given, or modelCallIds names the recorded model calls they are filled from.
 */
export type Decision = (
  (Omit<Body, 'orderId' | Filled> & Required<Pick<Body, Filled>>) | (Omit<Body, 'orderId' | 'modelCallIds'> & { modelCallIds: string[] })
) & { orderId?: OrderId | null };

/** WEEX counts `explanation` in UTF-16 code units, as JavaScript's `length` does; the gateway refuses more. */
export const EXPLANATION_UNITS = 1000;

/** The order ID as the digits to send: a string always, since JSON.parse on the way would turn a big one into a float. */
export function orderIdText(id: OrderId): string {
  if (typeof id === 'number' && !Number.isSafeInteger(id)) {
    throw new TypeError(`orderId ${id} is not a safe integer (it may have lost digits above 2^53): pass it as a bigint or a string`);
  }
  if (typeof id !== 'bigint' && typeof id !== 'string' && typeof id !== 'number') {
    throw new TypeError(`orderId must be a bigint, a string of digits or a safe-integer number, not ${typeof id}`);
  }
  return String(id); // the gateway checks the rest (digits, 1 to 2^63-1) and names orderId in its 400
}

/** `text` cut to `units` UTF-16 code units, never between the two halves of a surrogate pair (an emoji). */
export function fitExplanation(text: string, units = EXPLANATION_UNITS): string {
  if (text.length <= units) return text;
  const last = text.charCodeAt(units - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? units - 1 : units);
}

/** The request body of one decision. */
export function logBody(decision: Decision, fit: boolean): components['schemas']['CreateAiLogDto'] {
  const { orderId, explanation, ...rest } = decision;
  return {
    ...rest,
    ...(orderId == null ? {} : { orderId: orderIdText(orderId) }),
    ...(explanation === undefined ? {} : { explanation: fit ? fitExplanation(explanation) : explanation }),
  };
}
