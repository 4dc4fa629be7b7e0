/**
 * Order-side records as the simulator stores them, already in their wire shape (spec "Resources and their fields"):
 * Long fields are numbers (64-bit IDs as bigint, written as bare JSON integers), decimal amounts are strings.
 */

/** An order (spec "Order") plus the fields open-order items carry. */
export interface SimOrder {
  avgPrice: string;
  clientOrderId: string;
  cumQuote: string;
  executedQty: string;
  orderId: bigint;
  origQty: string;
  price: string;
  reduceOnly: boolean;
  side: string;
  positionSide: string;
  status: string;
  stopPrice: string;
  symbol: string;
  time: number;
  timeInForce: string;
  type: string;
  updateTime: number;
  workingType: string;
  priceProtect: boolean;
  priceMatch: string;
  selfTradePreventionMode: string;
  goodTillDate: number;
}

/** The fields only open-order items carry. */
export const OPEN_ORDER_EXTRA_FIELDS = ['priceProtect', 'priceMatch', 'selfTradePreventionMode', 'goodTillDate'] as const;

/** Statuses of an order that can still fill or be cancelled. */
export const OPEN_ORDER_STATUSES: readonly string[] = ['NEW', 'PARTIALLY_FILLED'];

/** algoStatus of a plan order that waits for its trigger, as ccxt captured it (weex.js fetchOpenOrders) [L]. */
export const WAITING_ALGO_STATUS = 'UNTRIGGERED';

/** algoStatus values of a plan order that can still trigger or be cancelled (NEW: seed files written before) [G]. */
export const CANCELLABLE_ALGO_STATUSES: readonly string[] = [WAITING_ALGO_STATUS, 'NEW'];

/** algoStatus values after which order/history lists the plan order itself, under its algoId (weex.js) [L]. */
export const ENDED_ALGO_STATUSES: readonly string[] = ['CANCELED', 'EXPIRED'];

/** A conditional (plan) order (spec "PlanOrder"). */
export interface SimPlanOrder {
  algoId: bigint;
  clientAlgoId: string;
  algoType: string;
  orderType: string;
  symbol: string;
  side: string;
  positionSide: string;
  timeInForce: string;
  quantity: string;
  algoStatus: string;
  actualOrderId: bigint | number;
  actualPrice: string;
  triggerPrice: string;
  price: string;
  workingType: string;
  /** Fields of ccxt's openAlgoOrders capture: take-profit and stop-loss presets (null when none). */
  tpTriggerPrice: string | null;
  tpPrice: string | null;
  slTriggerPrice: string | null;
  slPrice: string | null;
  tpOrderType: string | null;
  closePosition: boolean;
  reduceOnly: boolean;
  createTime: number;
  updateTime: number;
  triggerTime: number;
}

/** The preset fields of a plan order without take-profit or stop-loss presets, as ccxt's capture shows them. */
export const NO_PRESETS = {
  tpTriggerPrice: null,
  tpPrice: null,
  slTriggerPrice: null,
  slPrice: null,
  tpOrderType: null,
  closePosition: false,
} as const satisfies Partial<SimPlanOrder>;

/** A fill (spec "Trade"); `orderId` is the orderId of one of the account's orders. */
export interface SimTrade {
  id: bigint;
  orderId: bigint;
  symbol: string;
  buyer: boolean;
  commission: string;
  commissionAsset: string;
  maker: boolean;
  price: string;
  qty: string;
  quoteQty: string;
  realizedPnl: string;
  side: string;
  positionSide: string;
  time: number;
}
