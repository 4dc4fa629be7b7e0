import { normaliseList, normaliseRecord, type RecordShape } from './normalise.js';
import { buildBody, buildQuery } from './query-string.js';
import { checkId, checkInt, checkPage, checkWindow, required, requireId } from './request-validation.js';
import { toV2Symbol, toV3Symbol } from './symbols.js';
import type { CallOptions, IdInput, SymbolInput } from './types/common.types.js';
import type {
  AlgoOrdersPage,
  AlgoOrdersRequest,
  CancelBatchOrdersRequest,
  CancelBatchOrdersResult,
  CancelPlanRequest,
  CancelPlanResult,
  OpenOrdersRequest,
  Order,
  OrderHistoryRequest,
} from './types/order.types.js';
import { WeexApiError } from './weex-api.error.js';
import type { WeexCaller } from './weex-request-runner.js';

const ORDER: RecordShape = { ids: ['orderId'], times: ['time', 'updateTime', 'goodTillDate'] };
const PLAN_ORDER: RecordShape = { ids: ['algoId', 'actualOrderId'], times: ['createTime', 'updateTime', 'triggerTime'] };
const CANCEL_RESULT: RecordShape = { ids: ['order_id'] };
const CANCEL_BATCH: RecordShape = { ids: ['orderIds'], records: { cancelOrderResultList: CANCEL_RESULT, failInfos: CANCEL_RESULT } };

const v3 = (symbol: SymbolInput | undefined, op: string) => (symbol === undefined ? undefined : toV3Symbol(symbol, op));

export async function openOrders(caller: WeexCaller, req: OpenOrdersRequest = {}, options: CallOptions = {}): Promise<Order[]> {
  const op = 'openOrders';
  checkWindow(op, req.startTime, req.endTime);
  const query = buildQuery([
    ['symbol', v3(req.symbol, op)],
    ['orderId', checkId(op, 'orderId', req.orderId)],
    ['startTime', req.startTime],
    ['endTime', req.endTime],
    ['limit', checkInt(op, 'limit', req.limit, 1, 100, 100)],
    ['page', checkPage(op, req.page)],
  ]);
  const res = await caller.call({ operation: op, query, ...options });
  return normaliseList(res.data, ORDER, op);
}

export async function algoOrders(caller: WeexCaller, req: AlgoOrdersRequest = {}, options: CallOptions = {}): Promise<AlgoOrdersPage> {
  const op = 'algoOrders';
  checkWindow(op, req.startTime, req.endTime, 90);
  const query = buildQuery([
    ['symbol', v3(req.symbol, op)],
    ['startTime', req.startTime],
    ['endTime', req.endTime],
    ['limit', checkInt(op, 'limit', req.limit, 1, 1000, 500)],
  ]);
  const res = await caller.call({ operation: op, query, ...options });
  return normaliseRecord(res.data, { records: { orders: PLAN_ORDER } }, op);
}

export async function orderInfo(caller: WeexCaller, req: { orderId: IdInput }, options: CallOptions = {}): Promise<Order> {
  const op = 'orderInfo';
  const query = buildQuery([['orderId', requireId(op, 'orderId', req?.orderId)]]);
  const res = await caller.call({ operation: op, query, ...options });
  return normaliseRecord(res.data, ORDER, op);
}

export async function orderHistory(caller: WeexCaller, req: OrderHistoryRequest = {}, options: CallOptions = {}): Promise<Order[]> {
  const op = 'orderHistory';
  checkWindow(op, req.startTime, req.endTime, 90);
  const query = buildQuery([
    ['symbol', v3(req.symbol, op)],
    ['limit', checkInt(op, 'limit', req.limit, 1, 1000, 500)],
    ['startTime', req.startTime],
    ['endTime', req.endTime],
    ['page', checkPage(op, req.page)],
  ]);
  const res = await caller.call({ operation: op, query, ...options });
  return normaliseList(res.data, ORDER, op);
}

export async function cancelBatchOrders(caller: WeexCaller, req: CancelBatchOrdersRequest, options: CallOptions = {}): Promise<CancelBatchOrdersResult> {
  const op = 'cancelBatchOrders';
  const symbol = toV2Symbol(required(op, 'symbol', req?.symbol), op);
  const { ids, cids } = req;
  if ((ids === undefined) === (cids === undefined)) throw WeexApiError.invalidParameter(op, 'ids', 'or cids: exactly one of the two must be given');
  const list = (ids ?? cids)!;
  if (!Array.isArray(list) || list.length === 0) throw WeexApiError.invalidParameter(op, ids ? 'ids' : 'cids', 'must be a non-empty list');
  const body = ids
    ? buildBody([
        ['symbol', symbol],
        ['ids', ids.map((id, i) => checkId(op, `ids[${i}]`, id))],
      ])
    : buildBody([
        ['symbol', symbol],
        ['cids', cids!.map((cid, i) => required(op, `cids[${i}]`, cid))],
      ]);
  const res = await caller.call({ operation: op, body, ...options });
  return normaliseRecord(res.data, CANCEL_BATCH, op);
}

export async function cancelPlan(caller: WeexCaller, req: CancelPlanRequest, options: CallOptions = {}): Promise<CancelPlanResult> {
  const op = 'cancelPlan';
  const symbol = toV2Symbol(required(op, 'symbol', req?.symbol), op);
  const body = buildBody([
    ['symbol', symbol],
    ['orderId', requireId(op, 'orderId', req.orderId)],
  ]);
  const res = await caller.call({ operation: op, body, ...options });
  return normaliseRecord(res.data, CANCEL_RESULT, op);
}
