import type { OperationRequest } from '../operations.js';
import type { Decimal, Id, Millis } from './common.types.js';

/** One position (all-positions query). */
export interface Position {
  id: Id;
  asset: string;
  symbol: string;
  /** LONG or SHORT */
  side: string;
  /** CROSSED or ISOLATED */
  marginType: string;
  /** COMBINED or SEPARATED */
  separatedMode: string;
  separatedOpenOrderId: Id;
  leverage: Decimal;
  size: Decimal;
  openValue: Decimal;
  openFee: Decimal;
  fundingFee: Decimal;
  marginSize: Decimal;
  isolatedMargin: Decimal;
  isAutoAppendIsolatedMargin: boolean;
  cumOpenSize: Decimal;
  cumOpenValue: Decimal;
  cumOpenFee: Decimal;
  cumCloseSize: Decimal;
  cumCloseValue: Decimal;
  cumCloseFee: Decimal;
  cumFundingFee: Decimal;
  cumLiquidateFee: Decimal;
  createdMatchSequenceId: Id;
  updatedMatchSequenceId: Id;
  createdTime: Millis;
  updatedTime: Millis;
  unrealizePnl: Decimal;
  /** `0` means low risk: no liquidation price. */
  liquidatePrice: Decimal;
}

/** Its fields and their rules are declared in OPERATIONS.income.params. */
export type IncomeRequest = OperationRequest<'income'>;

/** One income (bill) item. */
export interface IncomeItem {
  billId: Id;
  asset: string;
  symbol: string;
  income: Decimal;
  incomeType: string;
  balance: Decimal;
  fillFee: Decimal;
  time: Millis;
  /** e.g. USER_TRANSFER, REFUND_<PLATFORM>_DISCOUNT_FEE. */
  transferReason: string;
}

export interface IncomePage {
  hasNextPage: boolean;
  /** Asks for the next page; null on the last (ccxt's capture, weex.js fetchFundingHistory) [L]. */
  nextKey?: string | null;
  items: IncomeItem[];
}

/** Margin and leverage configuration of one symbol. */
export interface SymbolConfig {
  symbol: string;
  /** CROSSED or ISOLATED */
  marginType: string;
  /** COMBINED or SEPARATED */
  separatedType: string;
  crossLeverage: Decimal;
  isolatedLongLeverage: Decimal;
  isolatedShortLeverage: Decimal;
}
