import type { WeightGrant } from '#libs/weight-budget';

/** A 64-bit exchange identifier as its exact decimal digits (never a JS number: IDs exceed 2^53). */
export type Id = string;
/** A quantity, price, fee or amount as the exchange's decimal text. */
export type Decimal = string;
/** Unix time in milliseconds (safe in a JS number). */
export type Millis = number;
/** An ID given by a caller: a string of digits or a bigint. */
export type IdInput = string | bigint;
/** A symbol in either notation: `BTCUSDT` (v3) or `cmt_btcusdt` (v2); each operation sends the one it needs. */
export type SymbolInput = string;

/** Options every client method accepts. */
export interface CallOptions {
  /** Aborts waiting for weight budget, backoff sleeps and the request itself. */
  signal?: AbortSignal;
  /** Refuse at once (BudgetWaitTooLong) rather than wait longer than this for weight budget; default: wait. */
  maxBudgetWaitMs?: number;
  /** The call's weight, taken already (WeexClient.takeWeight): its first attempt is sent without waiting for the budget. */
  weight?: WeightGrant;
  /** Called as each attempt is sent, after any wait for the exchange's clock or the budget: time the exchange call from here. */
  onSend?: () => void;
}
