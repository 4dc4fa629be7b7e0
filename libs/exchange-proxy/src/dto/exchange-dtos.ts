import { OperationDto } from './operation-dto.js';

// The request of each exchange operation the API serves, as its entry in OPERATIONS (libs/weex-client) declares it.

/** GET /v1/income (spec operation 3). */
export class IncomeParams extends OperationDto('income') {}

/** GET /v1/orders/open (spec operation 4). */
export class OpenOrdersParams extends OperationDto('openOrders') {}

/** GET /v1/algo-orders (spec operation 5). */
export class AlgoOrdersParams extends OperationDto('algoOrders') {}

/** GET /v1/orders/:orderId (spec operation 6): its path parameter. */
export class OrderInfoParams extends OperationDto('orderInfo') {}

/** GET /v1/orders/history (spec operation 7). */
export class OrderHistoryParams extends OperationDto('orderHistory') {}

/** GET /v1/trades (spec operation 8). */
export class UserTradesParams extends OperationDto('userTrades') {}

/** GET /v1/symbol-config (spec operation 9). */
export class SymbolConfigParams extends OperationDto('symbolConfig') {}

/** GET /v1/spot/bills (spec operation 10). */
export class SpotBillsParams extends OperationDto('spotBills') {}

/** POST /v1/orders/cancel-batch (spec operation 11). */
export class CancelBatchOrdersParams extends OperationDto('cancelBatchOrders') {}

/** POST /v1/plan-orders/cancel (spec operation 12). */
export class CancelPlanParams extends OperationDto('cancelPlan') {}
