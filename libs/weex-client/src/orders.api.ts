import { normaliseList, normaliseRecord, type RecordShape } from './normalise.js';
import { operationRequest } from './operation-request.js';
import type { CallOptions, IdInput } from './types/common.types.js';
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
import type { WeexCaller } from './weex-request-runner.js';

const ORDER: RecordShape = { ids: ['orderId'], times: ['time', 'updateTime', 'goodTillDate'] };
const PLAN_ORDER: RecordShape = { ids: ['algoId', 'actualOrderId'], times: ['createTime', 'updateTime', 'triggerTime'] };
const CANCEL_RESULT: RecordShape = { ids: ['order_id'] };
const CANCEL_BATCH: RecordShape = { ids: ['orderIds'], records: { cancelOrderResultList: CANCEL_RESULT, failInfos: CANCEL_RESULT } };

export async function openOrders(caller: WeexCaller, req: OpenOrdersRequest = {}, options: CallOptions = {}): Promise<Order[]> {
  const res = await caller.call({ ...operationRequest('openOrders', req), ...options });
  return normaliseList(res.data, ORDER, 'openOrders');
}

export async function algoOrders(caller: WeexCaller, req: AlgoOrdersRequest = {}, options: CallOptions = {}): Promise<AlgoOrdersPage> {
  const res = await caller.call({ ...operationRequest('algoOrders', req), ...options });
  return normaliseRecord(res.data, { records: { orders: PLAN_ORDER } }, 'algoOrders');
}

export async function orderInfo(caller: WeexCaller, req: { orderId: IdInput }, options: CallOptions = {}): Promise<Order> {
  const res = await caller.call({ ...operationRequest('orderInfo', req), ...options });
  return normaliseRecord(res.data, ORDER, 'orderInfo');
}

export async function orderHistory(caller: WeexCaller, req: OrderHistoryRequest = {}, options: CallOptions = {}): Promise<Order[]> {
  const res = await caller.call({ ...operationRequest('orderHistory', req), ...options });
  return normaliseList(res.data, ORDER, 'orderHistory');
}

export async function cancelBatchOrders(caller: WeexCaller, req: CancelBatchOrdersRequest, options: CallOptions = {}): Promise<CancelBatchOrdersResult> {
  const res = await caller.call({ ...operationRequest('cancelBatchOrders', req), ...options });
  return normaliseRecord(res.data, CANCEL_BATCH, 'cancelBatchOrders');
}

export async function cancelPlan(caller: WeexCaller, req: CancelPlanRequest, options: CallOptions = {}): Promise<CancelPlanResult> {
  const res = await caller.call({ ...operationRequest('cancelPlan', req), ...options });
  return normaliseRecord(res.data, CANCEL_RESULT, 'cancelPlan');
}
