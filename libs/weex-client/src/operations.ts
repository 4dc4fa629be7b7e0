import type { RecordShape } from './normalise.js';
import {
  type Answer,
  id,
  ids,
  int,
  INTEGER_MAX,
  listOf,
  millis,
  oneOf,
  type OperationParams,
  recordOf,
  required,
  type RequestOf,
  symbol,
  text,
  texts,
} from './operation-params.js';
import type { IncomePage, Position, SymbolConfig } from './types/account.types.js';
import type { AlgoOrdersPage, CancelBatchOrdersResult, CancelPlanResult, Order } from './types/order.types.js';
import type { SpotBill } from './types/spot.types.js';
import type { Trade } from './types/trade.types.js';

/** Which host an operation lives on: the contract REST host, or the spot host (spot bills only). */
export type WeexHost = 'contract' | 'spot';

export interface WeexOperation {
  /** Its number in the spec's endpoint table (contract-trading-interface.md), if it has one. */
  spec?: number;
  method: 'GET' | 'POST';
  path: string;
  host: WeexHost;
  /** Weight charged against the per-IP budget. */
  ipWeight: number;
  /** Weight charged against the per-UID (account) budget. */
  uidWeight: number;
  /** Whether the exchange changes state: writes are never retried blindly. */
  write: boolean;
  /** The request's parameters and their rules, for the operations the gateway serves. */
  params?: OperationParams;
  /** The answer's type, and which of its fields are IDs, times and nested records (`normalise.ts`). */
  answer?: Answer<unknown>;
}

/** incomeType values of the spec's income operation. */
export const INCOME_TYPES = [
  'deposit',
  'withdraw',
  'transfer_in',
  'transfer_out',
  'margin_move_in',
  'margin_move_out',
  'position_open_long',
  'position_open_short',
  'position_close_long',
  'position_close_short',
  'position_funding',
  'order_fill_fee_income',
  'order_liquidate_fee_income',
  'start_liquidate',
  'finish_liquidate',
  'order_fix_margin_amount',
  'tracking_follow_pay',
  'tracking_system_pre_receive',
  'tracking_follow_back',
  'tracking_trader_income',
  'tracking_third_party_share',
] as const;

const time = { startTime: millis(), endTime: millis() };

const ORDER: RecordShape = { ids: ['orderId'], times: ['time', 'updateTime', 'goodTillDate'] };
const PLAN_ORDER: RecordShape = { ids: ['algoId', 'actualOrderId'], times: ['createTime', 'updateTime', 'triggerTime'] };
const CANCEL_RESULT: RecordShape = { ids: ['order_id'] };
const POSITION: RecordShape = {
  ids: ['id', 'separatedOpenOrderId', 'createdMatchSequenceId', 'updatedMatchSequenceId'],
  times: ['createdTime', 'updatedTime'],
};

/**
 * Every operation of the interface spec (contract-trading-interface.md, endpoint table) plus server time and exchange
 * info. The one table both the client and the simulator read paths and weights from.
 */
export const OPERATIONS = {
  uploadAiLog: { spec: 1, method: 'POST', path: '/capi/v3/order/uploadAiLog', host: 'contract', ipWeight: 1, uidWeight: 1, write: true },
  uploadAiLogV2: { method: 'POST', path: '/capi/v2/order/uploadAiLog', host: 'contract', ipWeight: 1, uidWeight: 1, write: true },
  allPositions: {
    spec: 2,
    method: 'GET',
    path: '/capi/v3/account/position/allPosition',
    host: 'contract',
    ipWeight: 10,
    uidWeight: 15,
    write: false,
    params: { fields: {} },
    answer: listOf<Position>(POSITION),
  },
  income: {
    spec: 3,
    method: 'POST',
    path: '/capi/v3/account/income',
    host: 'contract',
    ipWeight: 2,
    uidWeight: 5,
    write: false,
    params: {
      fields: { asset: text(20), symbol: symbol(), incomeType: oneOf(INCOME_TYPES), ...time, limit: int(1, 100, 20), nextKey: id() },
      // The client sends both times: one client reports the exchange refusing a time sent alone.
      window: { maxDays: 100, endAloneDays: 30, startAlone: 'now', sendBoth: true },
    },
    answer: recordOf<IncomePage>({ records: { items: { ids: ['billId'], times: ['time'] } } }),
  },
  openOrders: {
    spec: 4,
    method: 'GET',
    path: '/capi/v3/openOrders',
    host: 'contract',
    ipWeight: 2,
    uidWeight: 3,
    write: false,
    params: { fields: { symbol: symbol(), orderId: id(0n), ...time, limit: int(1, 100, 100), page: int(0, INTEGER_MAX) }, window: {} },
    answer: listOf<Order>(ORDER),
  },
  algoOrders: {
    spec: 5,
    method: 'GET',
    path: '/capi/v3/allAlgoOrders',
    host: 'contract',
    ipWeight: 5,
    uidWeight: 10,
    write: false,
    params: { fields: { symbol: symbol(), ...time, limit: int(1, 1000, 500) }, window: { maxDays: 90 } },
    answer: recordOf<AlgoOrdersPage>({ records: { orders: PLAN_ORDER } }),
  },
  orderInfo: {
    spec: 6,
    method: 'GET',
    path: '/capi/v3/order',
    host: 'contract',
    ipWeight: 2,
    uidWeight: 3,
    write: false,
    params: { fields: { orderId: required(id()) } },
    answer: recordOf<Order>(ORDER),
  },
  orderHistory: {
    spec: 7,
    method: 'GET',
    path: '/capi/v3/order/history',
    host: 'contract',
    ipWeight: 10,
    uidWeight: 10,
    write: false,
    params: { fields: { symbol: symbol(), limit: int(1, 1000, 500), ...time, page: int(0, INTEGER_MAX) }, window: { maxDays: 90 } },
    answer: listOf<Order>(ORDER),
  },
  userTrades: {
    spec: 8,
    method: 'GET',
    path: '/capi/v3/userTrades',
    host: 'contract',
    ipWeight: 5,
    uidWeight: 5,
    write: false,
    params: {
      fields: { symbol: symbol(), orderId: id(), ...time, limit: int(1, 100, 100) },
      // weex-facts [L]: fills in windows of at most 7 days, at most 365 days back.
      window: { maxDays: 7, lookbackDays: 365, endAloneDays: 7, startAlone: 7 },
    },
    answer: listOf<Trade>({ ids: ['id', 'orderId'], times: ['time'] }),
  },
  symbolConfig: {
    spec: 9,
    method: 'GET',
    path: '/capi/v3/account/symbolConfig',
    host: 'contract',
    ipWeight: 5,
    uidWeight: 10,
    write: false,
    params: { fields: { symbol: symbol() } },
    answer: listOf<SymbolConfig>({}),
  },
  spotBills: {
    spec: 10,
    method: 'POST',
    path: '/api/v3/account/bills',
    host: 'spot',
    ipWeight: 5,
    uidWeight: 5,
    write: false,
    params: { fields: { coinId: int(0, INTEGER_MAX), bizType: text(64), after: millis(), before: millis(), limit: int(1, 100, 10) } },
    answer: listOf<SpotBill>({ ids: ['billId'], times: ['cTime'], integers: ['coinId'] }),
  },
  cancelBatchOrders: {
    spec: 11,
    method: 'POST',
    path: '/capi/v2/order/cancel_batch_orders',
    host: 'contract',
    ipWeight: 5,
    uidWeight: 10,
    write: true,
    params: {
      // A client order ID has at most 40 characters (WEEX -1180, weex.js).
      fields: { symbol: required(symbol()), ids: ids(), cids: texts(40) },
      exactlyOne: ['ids', 'cids'],
    },
    answer: recordOf<CancelBatchOrdersResult>({ ids: ['orderIds'], records: { cancelOrderResultList: CANCEL_RESULT, failInfos: CANCEL_RESULT } }),
  },
  cancelPlan: {
    spec: 12,
    method: 'POST',
    path: '/capi/v2/order/cancel_plan',
    host: 'contract',
    ipWeight: 2,
    uidWeight: 3,
    write: true,
    params: { fields: { symbol: required(symbol()), orderId: required(id()) } },
    answer: recordOf<CancelPlanResult>(CANCEL_RESULT),
  },
  // Not in the spec's table; public and unsigned. Weights are a guess [G] and cheap to change here.
  serverTime: { method: 'GET', path: '/capi/v3/market/time', host: 'contract', ipWeight: 1, uidWeight: 0, write: false },
  exchangeInfo: { method: 'GET', path: '/capi/v3/market/exchangeInfo', host: 'contract', ipWeight: 1, uidWeight: 0, write: false },
} as const satisfies Record<string, WeexOperation>;

export type OperationName = keyof typeof OPERATIONS;

/** The request of an operation the table declares parameters for, as the client takes it. */
export type OperationRequest<K extends OperationName> = RequestOf<(typeof OPERATIONS)[K] extends { params: infer P } ? P : never>;

/** The answer of an operation, as the client returns it (normalised). */
export type OperationAnswer<K extends OperationName> = (typeof OPERATIONS)[K] extends { answer: Answer<infer T> } ? T : never;
