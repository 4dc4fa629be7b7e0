import { CONTRACT_FEES, marketOf } from '../seed/market-catalog.js';
import { divUnits, fromUnits, mulUnits, toUnits } from '../seed/decimal-units.js';
import type { SimPosition } from '../state/account-records.js';
import type { SimOrder, SimTrade } from '../state/order-records.js';
import type { SimAccount } from '../state/sim-account.js';

/** Creates IDs (SimState.newId). */
export type IdSource = (time: number) => bigint;

/** Whether an order of this side opens (BUY LONG, SELL SHORT) or closes (SELL LONG, BUY SHORT) its position side. */
export const isClosing = (side: string, positionSide: string) => (side === 'BUY') === (positionSide === 'SHORT');

/**
 * Fills `qty` of `order` at `price`: one trade (fee at the exchangeInfo rates), the order's filled amounts, the
 * position of its side, and an income item with the running balance, the way the generated history books them.
 */
export function fillOrder(account: SimAccount, order: SimOrder, fill: { qty: string; price: string; maker: boolean; time: number }, newId: IdSource): SimTrade {
  const qty = toUnits(fill.qty);
  const price = toUnits(fill.price);
  const quote = mulUnits(qty, price);
  const commission = mulUnits(quote, toUnits(fill.maker ? CONTRACT_FEES.maker : CONTRACT_FEES.taker));
  const realized = bookPosition(account, order, qty, price, commission, fill.time, newId);
  const trade: SimTrade = {
    id: newId(fill.time),
    orderId: order.orderId,
    symbol: order.symbol,
    buyer: order.side === 'BUY',
    commission: fromUnits(commission),
    commissionAsset: 'USDT',
    maker: fill.maker,
    price: fill.price,
    qty: fill.qty,
    quoteQty: fromUnits(quote),
    realizedPnl: fromUnits(realized),
    side: order.side,
    positionSide: order.positionSide,
    time: fill.time,
  };
  account.data.trades.push(trade);
  const executed = toUnits(order.executedQty) + qty;
  const cumQuote = toUnits(order.cumQuote) + quote;
  Object.assign(order, {
    executedQty: fromUnits(executed),
    cumQuote: fromUnits(cumQuote),
    avgPrice: fromUnits(divUnits(cumQuote, executed)),
    status: executed >= toUnits(order.origQty) ? 'FILLED' : 'PARTIALLY_FILLED',
    updateTime: fill.time,
  });
  bookIncome(account, trade, realized - commission);
  return trade;
}

/** The account's USDT balance: the running balance of its latest income item. */
export function walletBalance(account: SimAccount): bigint {
  const last = account.data.income.at(-1);
  return last ? toUnits(last.balance) : 0n;
}

/** Opens or adds to the position of the order's side, or closes part of it; returns the realised PnL. */
function bookPosition(account: SimAccount, order: SimOrder, qty: bigint, price: bigint, fee: bigint, time: number, newId: IdSource): bigint {
  const positions = account.data.positions;
  let position = positions.find((p) => p.symbol === order.symbol && p.side === order.positionSide);
  const value = mulUnits(qty, price);
  if (!isClosing(order.side, order.positionSide)) {
    position ??= newPosition(account, order, time, newId);
    add(position, { size: qty, openValue: value, openFee: fee, cumOpenSize: qty, cumOpenValue: value, cumOpenFee: fee });
    settle(position, time);
    return 0n;
  }
  if (!position) return 0n;
  const size = toUnits(position.size);
  const closed = qty < size ? qty : size;
  const entryValue = size === 0n ? 0n : (toUnits(position.openValue) * closed) / size;
  const direction = position.side === 'LONG' ? 1n : -1n;
  const realized = (mulUnits(closed, price) - entryValue) * direction;
  add(position, { size: -closed, openValue: -entryValue, cumCloseSize: closed, cumCloseValue: mulUnits(closed, price), cumCloseFee: fee });
  settle(position, time);
  if (closed === size) positions.splice(positions.indexOf(position), 1);
  return realized;
}

/** Margin follows the open value at the position's leverage. */
function settle(position: SimPosition, time: number): void {
  position.marginSize = fromUnits(divUnits(toUnits(position.openValue), toUnits(position.leverage)));
  position.updatedTime = time;
}

function add(position: SimPosition, deltas: Partial<Record<keyof SimPosition, bigint>>): void {
  const fields = position as unknown as Record<string, string>;
  for (const [field, delta] of Object.entries(deltas)) fields[field] = fromUnits(toUnits(fields[field]) + (delta as bigint));
}

/** A cross-margin position at the symbol's configured leverage, empty until the fill adds to it. */
function newPosition(account: SimAccount, order: SimOrder, time: number, newId: IdSource): SimPosition {
  const config = account.data.symbolConfigs.find((c) => c.symbol === order.symbol);
  const leverage = config?.crossLeverage ?? String(Math.min(20, marketOf(order.symbol).maxLeverage));
  const position: SimPosition = {
    id: newId(time),
    asset: 'USDT',
    symbol: order.symbol,
    side: order.positionSide,
    marginType: 'CROSSED',
    separatedMode: 'COMBINED',
    separatedOpenOrderId: 0,
    leverage,
    size: '0',
    openValue: '0',
    openFee: '0',
    fundingFee: '0',
    marginSize: '0',
    isolatedMargin: '0',
    isAutoAppendIsolatedMargin: false,
    cumOpenSize: '0',
    cumOpenValue: '0',
    cumOpenFee: '0',
    cumCloseSize: '0',
    cumCloseValue: '0',
    cumCloseFee: '0',
    cumFundingFee: '0',
    cumLiquidateFee: '0',
    createdMatchSequenceId: Math.floor(time / 1000),
    updatedMatchSequenceId: Math.floor(time / 1000),
    createdTime: time,
    updatedTime: time,
    unrealizePnl: '0',
    liquidatePrice: '0',
  };
  account.data.positions.push(position);
  return position;
}

/** One income item per fill (position_open_* / position_close_*), income = realised PnL - fee, as generated ones. */
function bookIncome(account: SimAccount, trade: SimTrade, income: bigint): void {
  const closing = isClosing(trade.side, trade.positionSide);
  account.data.income.push({
    billId: trade.id.toString(),
    asset: 'USDT',
    symbol: trade.symbol,
    income: fromUnits(income),
    incomeType: `position_${closing ? 'close' : 'open'}_${trade.positionSide.toLowerCase()}`,
    balance: fromUnits(walletBalance(account) + income),
    fillFee: trade.commission,
    time: String(trade.time),
    transferReason: 'UNKNOWN_TRANSFER_REASON',
  });
}
