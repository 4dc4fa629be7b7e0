import { SimError, SimFailure } from '../errors.js';
import { invalidParam, type RequestParams } from '../http/request-params.js';
import { toUnits } from '../seed/decimal-units.js';
import { MARKET_SYMBOLS, type MarketSymbol, stepUnits, tickUnits } from '../seed/market-catalog.js';

export const SIDES = ['BUY', 'SELL'] as const;
export const POSITION_SIDES = ['LONG', 'SHORT'] as const;
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
/** Plan order types of ccxt's createContractOrderRequest (weex.js): stop and take-profit, market or limit [L]. */
export const PLAN_TYPES = ['STOP_MARKET', 'STOP', 'TAKE_PROFIT_MARKET', 'TAKE_PROFIT'] as const;
/** workingType values ccxt sends (weex.js encodeTriggerPriceType) [L]. */
const WORKING_TYPES = ['CONTRACT_PRICE', 'MARK_PRICE'];

/** Fields both kinds of order share. */
interface OrderBasics {
  market: MarketSymbol;
  side: string;
  positionSide: string;
  quantity: string;
  reduceOnly: boolean;
}

export interface NewOrderRequest extends OrderBasics {
  type: 'LIMIT' | 'MARKET';
  price: string;
  timeInForce: string;
  clientOrderId?: string;
  /** Take-profit and stop-loss attached to the order (ccxt: params.takeProfit / params.stopLoss). */
  tpTriggerPrice?: string;
  slTriggerPrice?: string;
  tpWorkingType: string;
  slWorkingType: string;
}

export interface NewPlanRequest extends OrderBasics {
  orderType: string;
  triggerPrice: string;
  price: string;
  clientAlgoId?: string;
  workingType: string;
}

/** POST /capi/v3/order, with the fields ccxt's createContractOrderRequest sends (weex.js) [L]. */
export function parseNewOrder(params: RequestParams): NewOrderRequest {
  const basics = orderBasics(params);
  const type = params.oneOf('type', ['LIMIT', 'MARKET'], SimFailure.InvalidOrderType) ?? missing('type');
  const price = type === 'LIMIT' ? (priceOf(params, 'price', basics.market) ?? missing('price')) : '0';
  return {
    ...basics,
    type: type as 'LIMIT' | 'MARKET',
    price,
    timeInForce: params.oneOf('timeInForce', TIME_IN_FORCE, SimFailure.InvalidTimeInForce) ?? (type === 'LIMIT' ? 'GTC' : 'IOC'),
    clientOrderId: clientId(params, 'newClientOrderId'),
    tpTriggerPrice: priceOf(params, 'tpTriggerPrice', basics.market),
    slTriggerPrice: priceOf(params, 'slTriggerPrice', basics.market),
    tpWorkingType: params.oneOf('TpWorkingType', WORKING_TYPES) ?? 'CONTRACT_PRICE',
    slWorkingType: params.oneOf('SlWorkingType', WORKING_TYPES) ?? 'CONTRACT_PRICE',
  };
}

/** POST /capi/v3/algoOrder: ccxt puts the plan type in `type` and the trigger in `triggerPrice` (weex.js) [L]. */
export function parseNewPlan(params: RequestParams): NewPlanRequest {
  const basics = orderBasics(params);
  const orderType = params.oneOf('type', PLAN_TYPES, SimFailure.InvalidOrderType) ?? missing('type');
  const limit = !orderType.endsWith('_MARKET');
  return {
    ...basics,
    orderType,
    triggerPrice: priceOf(params, 'triggerPrice', basics.market) ?? missing('triggerPrice'),
    price: limit ? (priceOf(params, 'price', basics.market) ?? missing('price')) : '0',
    clientAlgoId: clientId(params, 'clientAlgoId'),
    workingType: params.oneOf('TpWorkingType', WORKING_TYPES) ?? params.oneOf('SlWorkingType', WORKING_TYPES) ?? 'CONTRACT_PRICE',
  };
}

/** A listed contract symbol, or -1121 INVALID_SYMBOL. */
export function marketParam(params: RequestParams): MarketSymbol {
  const symbol = params.v3Symbol() ?? missing('symbol');
  const market = MARKET_SYMBOLS.find((m) => m.symbol === symbol);
  if (!market) throw new SimError(SimFailure.InvalidSymbol, 'Invalid symbol.');
  return market;
}

function orderBasics(params: RequestParams): OrderBasics {
  const market = marketParam(params);
  const side = params.oneOf('side', SIDES, SimFailure.InvalidSide) ?? missing('side');
  const positionSide = params.oneOf('positionSide', POSITION_SIDES) ?? (side === 'BUY' ? 'LONG' : 'SHORT');
  const quantity = params.decimal('quantity') ?? missing('quantity');
  const units = toUnits(quantity);
  if (units % stepUnits(market) !== 0n)
    throw new SimError(SimFailure.DecimalPrecision, `Decimal precision error: quantity must be a multiple of ${market.stepSize}`);
  if (units < toUnits(market.minOrderSize)) throw invalidParam('quantity', `must be at least ${market.minOrderSize}`);
  if (units > toUnits(market.maxOrderSize))
    throw new SimError(SimFailure.MaxQuantityExceeded, `Maximum contract order quantity exceeded: ${market.maxOrderSize}`);
  const closing = (side === 'BUY') === (positionSide === 'SHORT');
  return { market, side, positionSide, quantity, reduceOnly: params.bool('reduceOnly') ?? closing };
}

function priceOf(params: RequestParams, name: string, market: MarketSymbol): string | undefined {
  const price = params.decimal(name);
  if (price !== undefined && toUnits(price) % tickUnits(market) !== 0n) {
    throw new SimError(SimFailure.DecimalPrecision, `Decimal precision error: ${name} must be a multiple of ${market.tickSize}`);
  }
  return price;
}

/** At most 40 characters of letters, digits, `-` and `_` (weex.js -1180 CLIENT_OID_LENGTH_ERROR) [L]. */
function clientId(params: RequestParams, name: string): string | undefined {
  const id = params.string(name);
  if (id !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(id)) {
    throw new SimError(SimFailure.ClientOidLength, 'client_oid length must not exceed 40 and must not contain special characters');
  }
  return id;
}

function missing(name: string): never {
  throw invalidParam(name, 'is required');
}
