/** Account-side records in their wire shape; see order-records.ts for the conventions. */

/** An open position (spec "Position"). */
export interface SimPosition {
  id: bigint;
  asset: string;
  symbol: string;
  side: string;
  marginType: string;
  separatedMode: string;
  separatedOpenOrderId: bigint | number;
  leverage: string;
  size: string;
  openValue: string;
  openFee: string;
  fundingFee: string;
  marginSize: string;
  isolatedMargin: string;
  isAutoAppendIsolatedMargin: boolean;
  cumOpenSize: string;
  cumOpenValue: string;
  cumOpenFee: string;
  cumCloseSize: string;
  cumCloseValue: string;
  cumCloseFee: string;
  cumFundingFee: string;
  cumLiquidateFee: string;
  createdMatchSequenceId: number;
  updatedMatchSequenceId: number;
  createdTime: number;
  updatedTime: number;
  unrealizePnl: string;
  liquidatePrice: string;
}

/** Margin and leverage settings of one symbol (spec "Symbol configuration"). */
export interface SimSymbolConfig {
  symbol: string;
  marginType: string;
  separatedType: string;
  crossLeverage: string;
  isolatedLongLeverage: string;
  isolatedShortLeverage: string;
}

/** An income item; `billId` and `time` are strings, as ccxt's newer capture shows them (weex.js fetchFundingHistory) [L]. */
export interface SimIncome {
  billId: string;
  asset: string;
  symbol: string;
  income: string;
  incomeType: string;
  balance: string;
  fillFee: string;
  time: string;
  transferReason: string;
}

/** A spot bill; `billId` and `cTime` are strings and `coinId` an integer, as WEEX sends them (weex-facts). */
export interface SimSpotBill {
  billId: string;
  coinId: number;
  coinName: string;
  bizType: string;
  fillSize: string;
  fillValue: string;
  deltaAmount: string;
  afterAmount: string;
  fees: string;
  cTime: string;
}
