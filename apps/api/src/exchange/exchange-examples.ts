/**
 * Example answers for the OpenAPI document, in the shapes the endpoints return: every field of the spec's tables,
 * IDs as strings (a 64-bit literal in TypeScript would be rounded before it reached the document), times in ms.
 */

const ORDER = {
  avgPrice: '0', clientOrderId: 'agent-7f3a', cumQuote: '0', executedQty: '0', orderId: '737185556881998184', origQty: '0.010',
  price: '64250.5', reduceOnly: false, side: 'BUY', positionSide: 'LONG', status: 'NEW', stopPrice: '0', symbol: 'BTCUSDT',
  time: 1795380000000, timeInForce: 'GTC', type: 'LIMIT', updateTime: 1795380000000, workingType: 'CONTRACT_PRICE',
};

export const EXAMPLES = {
  positions: {
    data: [{
      id: '737185556881990001', asset: 'USDT', symbol: 'BTCUSDT', side: 'LONG', marginType: 'CROSSED', separatedMode: 'COMBINED',
      separatedOpenOrderId: '0', leverage: '10', size: '0.020', openValue: '1285.01', openFee: '0.77', fundingFee: '-0.12',
      marginSize: '128.50', isolatedMargin: '0', isAutoAppendIsolatedMargin: false, cumOpenSize: '0.020', cumOpenValue: '1285.01',
      cumOpenFee: '0.77', cumCloseSize: '0', cumCloseValue: '0', cumCloseFee: '0', cumFundingFee: '-0.12', cumLiquidateFee: '0',
      createdMatchSequenceId: '737185556881990100', updatedMatchSequenceId: '737185556881990180', createdTime: 1795300000000,
      updatedTime: 1795380000000, unrealizePnl: '3.40', liquidatePrice: '0',
    }],
  },
  income: {
    hasNextPage: false,
    items: [{
      billId: '737185556881995555', asset: 'USDT', symbol: 'BTCUSDT', income: '-0.12', incomeType: 'position_funding',
      balance: '1021.55', fillFee: '0', time: 1795380000000, transferReason: 'UNKNOWN_TRANSFER_REASON',
    }],
  },
  symbolConfig: {
    data: [{ symbol: 'BTCUSDT', marginType: 'CROSSED', separatedType: 'COMBINED', crossLeverage: '10', isolatedLongLeverage: '10', isolatedShortLeverage: '10' }],
  },
  openOrders: { data: [{ ...ORDER, priceProtect: false, priceMatch: 'NONE', selfTradePreventionMode: 'NONE', goodTillDate: 0 }] },
  orderHistory: { data: [{ ...ORDER, status: 'FILLED', executedQty: '0.010', cumQuote: '642.51', avgPrice: '64250.5' }] },
  order: { ...ORDER, status: 'CANCELED', updateTime: 1795380600000 },
  algoOrders: {
    orders: [{
      algoId: '737185556881997777', clientAlgoId: 'agent-sl-1', algoType: 'CONDITIONAL', orderType: 'STOP_MARKET', symbol: 'BTCUSDT',
      side: 'SELL', positionSide: 'LONG', timeInForce: 'GTC', quantity: '0.010', algoStatus: 'NEW', actualOrderId: '0',
      actualPrice: '0', triggerPrice: '62000', price: '0', workingType: 'MARK_PRICE', createTime: 1795380000000,
      updateTime: 1795380000000, triggerTime: 0,
    }],
    hasMore: false,
  },
  trades: {
    data: [{
      id: '737185556881998801', orderId: '737185556881998184', symbol: 'BTCUSDT', buyer: true, commission: '0.38',
      commissionAsset: 'USDT', maker: false, price: '64250.5', qty: '0.010', quoteQty: '642.51', realizedPnl: '0', side: 'BUY',
      positionSide: 'LONG', time: 1795380000000,
    }],
  },
  spotBills: {
    data: [{
      billId: '1337788990011', coinId: 2, coinName: 'USDT', bizType: 'deposit', fillSize: '0', fillValue: '0', deltaAmount: '500',
      afterAmount: '1500', fees: '0', cTime: 1795380000000,
    }],
  },
  cancelBatch: {
    result: true, symbol: 'cmt_btcusdt', orderIds: ['737185556881998184'], clientOids: ['agent-7f3a'],
    cancelOrderResultList: [{ err_code: '', err_msg: '', order_id: '737185556881998184', client_oid: 'agent-7f3a', result: true }],
    failInfos: [],
  },
  cancelPlan: { order_id: '737185556881997777', client_oid: 'agent-sl-1', symbol: 'cmt_btcusdt', result: true, err_code: null, err_msg: null },
};

/** The error answers every exchange endpoint may give (ErrorBody; see ExchangeErrorFilter for the mapping). */
export const EXCHANGE_ERRORS = [400, 401, 403, 409, 429, 502, 503, 504] as const;
