import { UPLOAD_AI_LOG_PATHS, uploadAiLogCall, type UploadAiLogRequest, type UploadAiLogResult } from './ai-log.api.js';
import * as market from './market.api.js';
import { callOperation, type ParamOperation } from './operation-request.js';
import type { OperationAnswer, OperationRequest } from './operations.js';
import type { IncomePage, IncomeRequest, Position, SymbolConfig } from './types/account.types.js';
import type { CallOptions, IdInput, SymbolInput } from './types/common.types.js';
import type { ExchangeInfo, ServerTime } from './types/market.types.js';
import type * as O from './types/order.types.js';
import type { SpotBill, SpotBillsRequest } from './types/spot.types.js';
import type { Trade, UserTradesRequest } from './types/trade.types.js';
import { WeexClientBase } from './weex-client-base.js';

/**
 * The WEEX contract (and spot bills) REST client: every operation of OPERATIONS by name, and a named method each. Every call waits for its IP and UID
 * weight in the budget, is signed afresh, has a timeout, and comes back normalised (IDs as digit strings, times as
 * ms numbers, amounts as decimal strings). Reads are retried on transient, unavailable and rate-limited answers;
 * writes (cancels, uploads) never are. Bad parameters are refused before sending with an `invalid_request`
 * WeexApiError naming the field. Symbols may be given as `BTCUSDT` or `cmt_btcusdt`.
 */
export class WeexClient extends WeexClientBase {
  /**
   * Any operation whose parameters and answer OPERATIONS declares, by name: `request('openOrders', { limit: 10 })`.
   * The named methods below are this with their documentation.
   */
  request<K extends ParamOperation>(operation: K, req: OperationRequest<K>, options?: CallOptions): Promise<OperationAnswer<K>> {
    return callOperation(this.caller, operation, req, options);
  }

  /** Uploads an AI log (v3 path, or v2). Weight 1 IP / 1 UID. Allowlisted UIDs only. Write: sent once. */
  uploadAiLog(req: UploadAiLogRequest, version: 'v3' | 'v2' = 'v3', options?: CallOptions): Promise<UploadAiLogResult> {
    return uploadAiLogCall(this.caller, req, version, options);
  }

  /** Where uploadAiLog posts: what an attempt records, whether the exchange answers or not. */
  uploadAiLogUrl(version: 'v3' | 'v2' = 'v3'): string {
    return `${this.transport.baseUrl}${UPLOAD_AI_LOG_PATHS[version]}`;
  }

  /** All current positions. Weight 10 IP / 15 UID. */
  allPositions(options?: CallOptions): Promise<Position[]> {
    return this.request('allPositions', {}, options);
  }

  /**
   * Income (bill) history. Weight 2 IP / 5 UID. limit 1-100, default 20. Only endTime: startTime = endTime − 30 days;
   * only startTime: endTime = now; both: at most 100 days apart.
   */
  income(req: IncomeRequest = {}, options?: CallOptions): Promise<IncomePage> {
    return this.request('income', req, options);
  }

  /** Margin and leverage configuration of one symbol, or of all when none is given. Weight 5 IP / 10 UID. */
  symbolConfig(req: { symbol?: SymbolInput } = {}, options?: CallOptions): Promise<SymbolConfig[]> {
    return this.request('symbolConfig', req, options);
  }

  /** Current (open) orders. Weight 2 IP / 3 UID. limit 1-100, default 100; page from 0. */
  openOrders(req: O.OpenOrdersRequest = {}, options?: CallOptions): Promise<O.Order[]> {
    return this.request('openOrders', req, options);
  }

  /** Conditional-order history. Weight 5 IP / 10 UID. limit 1-1000, default 500; endTime within 90 days of startTime. */
  algoOrders(req: O.AlgoOrdersRequest = {}, options?: CallOptions): Promise<O.AlgoOrdersPage> {
    return this.request('algoOrders', req, options);
  }

  /** One order by its ID (required). Weight 2 IP / 3 UID. */
  orderInfo(req: { orderId: IdInput }, options?: CallOptions): Promise<O.Order> {
    return this.request('orderInfo', req, options);
  }

  /**
   * Order history. Weight 10 IP / 10 UID. limit 1-1000, default 500; startTime ≤ endTime, at most 90 days apart;
   * page from 0.
   */
  orderHistory(req: O.OrderHistoryRequest = {}, options?: CallOptions): Promise<O.Order[]> {
    return this.request('orderHistory', req, options);
  }

  /** Trade (fill) details. Weight 5 IP / 5 UID. limit 1-100, default 100; endTime ≥ startTime. */
  userTrades(req: UserTradesRequest = {}, options?: CallOptions): Promise<Trade[]> {
    return this.request('userTrades', req, options);
  }

  /** Spot account bills, on the spot host. Weight 5 IP / 5 UID. limit 1-100, default 10. */
  spotBills(req: SpotBillsRequest = {}, options?: CallOptions): Promise<SpotBill[]> {
    return this.request('spotBills', req, options);
  }

  /**
   * Cancels orders by `ids` or by `cids` (exactly one, non-empty); sends the v2 symbol. Weight 5 IP / 10 UID.
   * Write: sent once. Per-order failures come back in `failInfos`, not as an error.
   */
  cancelBatchOrders(req: O.CancelBatchOrdersRequest, options?: CallOptions): Promise<O.CancelBatchOrdersResult> {
    return this.request('cancelBatchOrders', req, options);
  }

  /** Cancels one plan (conditional) order; symbol and orderId required. Weight 2 IP / 3 UID. Write: sent once. */
  cancelPlan(req: O.CancelPlanRequest, options?: CallOptions): Promise<O.CancelPlanResult> {
    return this.request('cancelPlan', req, options);
  }

  /** The exchange's clock. Public, unsigned. Weight 1 IP. */
  serverTime(options?: CallOptions): Promise<ServerTime> {
    return market.serverTime(this.caller, options);
  }

  /** Exchange information, including `rateLimits`. Public, unsigned. Weight 1 IP. */
  exchangeInfo(options?: CallOptions): Promise<ExchangeInfo> {
    return market.exchangeInfo(this.caller, options);
  }
}
