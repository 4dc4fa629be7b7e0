/** The field tables of contract-trading-interface.md, with the wire type each field must have. */
export type WireType = 'Long' | 'String' | 'Boolean' | 'Integer';

const table = (longs: string[], strings: string[], booleans: string[] = [], integers: string[] = []) =>
  Object.fromEntries([
    ...longs.map((f) => [f, 'Long']),
    ...strings.map((f) => [f, 'String']),
    ...booleans.map((f) => [f, 'Boolean']),
    ...integers.map((f) => [f, 'Integer']),
  ]) as Record<string, WireType>;

export const POSITION_FIELDS = table(
  ['id', 'separatedOpenOrderId', 'createdMatchSequenceId', 'updatedMatchSequenceId', 'createdTime', 'updatedTime'],
  [
    'asset',
    'symbol',
    'side',
    'marginType',
    'separatedMode',
    'leverage',
    'size',
    'openValue',
    'openFee',
    'fundingFee',
    'marginSize',
    'isolatedMargin',
    'cumOpenSize',
    'cumOpenValue',
    'cumOpenFee',
    'cumCloseSize',
    'cumCloseValue',
    'cumCloseFee',
    'cumFundingFee',
    'cumLiquidateFee',
    'unrealizePnl',
    'liquidatePrice',
  ],
  ['isAutoAppendIsolatedMargin'],
);

export const INCOME_FIELDS = table(['billId', 'time'], ['asset', 'symbol', 'income', 'incomeType', 'balance', 'fillFee', 'transferReason']);

/** Income items as ccxt's newer capture shows them, and as the simulator sends them: billId and time as strings. */
export const INCOME_WIRE_FIELDS = table([], ['billId', 'time', ...Object.keys(INCOME_FIELDS).filter((f) => f !== 'billId' && f !== 'time')]);

export const ORDER_FIELDS = table(
  ['orderId', 'time', 'updateTime'],
  [
    'avgPrice',
    'clientOrderId',
    'cumQuote',
    'executedQty',
    'origQty',
    'price',
    'side',
    'positionSide',
    'status',
    'stopPrice',
    'symbol',
    'timeInForce',
    'type',
    'workingType',
  ],
  ['reduceOnly'],
);

export const OPEN_ORDER_FIELDS = {
  ...ORDER_FIELDS,
  ...table(['goodTillDate'], ['priceMatch', 'selfTradePreventionMode'], ['priceProtect']),
};

export const PLAN_ORDER_FIELDS = table(
  ['algoId', 'actualOrderId', 'createTime', 'updateTime', 'triggerTime'],
  [
    'clientAlgoId',
    'algoType',
    'orderType',
    'symbol',
    'side',
    'positionSide',
    'timeInForce',
    'quantity',
    'algoStatus',
    'actualPrice',
    'triggerPrice',
    'price',
    'workingType',
  ],
);

export const TRADE_FIELDS = table(
  ['id', 'orderId', 'time'],
  ['symbol', 'commission', 'commissionAsset', 'price', 'qty', 'quoteQty', 'realizedPnl', 'side', 'positionSide'],
  ['buyer', 'maker'],
);

export const SYMBOL_CONFIG_FIELDS = table([], ['symbol', 'marginType', 'separatedType', 'crossLeverage', 'isolatedLongLeverage', 'isolatedShortLeverage']);

/** billId and cTime are strings and coinId an integer, as WEEX sends them (weex-facts). */
export const SPOT_BILL_FIELDS = table(
  [],
  ['billId', 'coinName', 'bizType', 'fillSize', 'fillValue', 'deltaAmount', 'afterAmount', 'fees', 'cTime'],
  [],
  ['coinId'],
);

export const CANCEL_RESULT_FIELDS = table([], ['err_code', 'err_msg', 'order_id', 'client_oid'], ['result']);

/** Every field of `table` is present with its wire type; decimal strings parse as numbers. */
export function expectShape(record: unknown, fields: Record<string, WireType>): void {
  const value = record as Record<string, unknown>;
  for (const [name, type] of Object.entries(fields)) {
    const field = value[name];
    const ok =
      type === 'Long'
        ? typeof field === 'bigint' || Number.isSafeInteger(field)
        : type === 'Integer'
          ? Number.isSafeInteger(field)
          : type === 'Boolean'
            ? typeof field === 'boolean'
            : typeof field === 'string';
    if (!ok) throw new Error(`field ${name} should be a ${type}, got ${typeof field} ${String(field)}`);
  }
}
