import { ApiProperty } from '@nestjs/swagger';
import { ApiDecimal, ApiId, ApiMillis } from '#libs/api-docs';
import type { AlgoOrdersPage, Order, PlanOrder } from '#libs/weex-client';
import { ExchangeRecord } from './exchange-record.js';

@ExchangeRecord('An order (spec operations 4, 6 and 7)')
export class OrderDto implements Order {
  @ApiDecimal() avgPrice: string;
  @ApiProperty() clientOrderId: string;
  @ApiDecimal() cumQuote: string;
  @ApiDecimal() executedQty: string;
  @ApiId() orderId: string;
  @ApiDecimal() origQty: string;
  @ApiDecimal() price: string;
  @ApiProperty() reduceOnly: boolean;
  @ApiProperty({ description: 'BUY or SELL' }) side: string;
  @ApiProperty({ description: 'LONG or SHORT' }) positionSide: string;
  @ApiProperty({ description: 'e.g. NEW, PARTIALLY_FILLED, FILLED, CANCELED' }) status: string;
  @ApiDecimal() stopPrice: string;
  @ApiProperty() symbol: string;
  @ApiMillis() time: number;
  @ApiProperty() timeInForce: string;
  @ApiProperty() type: string;
  @ApiMillis() updateTime: number;
  @ApiProperty() workingType: string;
  @ApiProperty({ required: false, description: 'open orders only' }) priceProtect?: boolean;
  @ApiProperty({ required: false, description: 'open orders only' }) priceMatch?: string;
  @ApiProperty({ required: false, description: 'open orders only' }) selfTradePreventionMode?: string;
  @ApiMillis({ required: false, description: 'open orders only' }) goodTillDate?: number;
}

export class OrderListDto {
  @ApiProperty({ type: [OrderDto] }) data: OrderDto[];
}

@ExchangeRecord('A conditional (plan) order (spec operation 5)')
export class PlanOrderDto implements PlanOrder {
  @ApiId() algoId: string;
  @ApiProperty() clientAlgoId: string;
  @ApiProperty() algoType: string;
  @ApiProperty({ description: 'e.g. STOP_MARKET, TAKE_PROFIT_MARKET' }) orderType: string;
  @ApiProperty() symbol: string;
  @ApiProperty() side: string;
  @ApiProperty() positionSide: string;
  @ApiProperty() timeInForce: string;
  @ApiDecimal() quantity: string;
  @ApiProperty({ description: 'e.g. NEW, TRIGGERED, CANCELED' }) algoStatus: string;
  @ApiId({ description: 'the order placed when it triggered (or the order it protects)' }) actualOrderId: string;
  @ApiDecimal() actualPrice: string;
  @ApiDecimal() triggerPrice: string;
  @ApiDecimal() price: string;
  @ApiProperty() workingType: string;
  @ApiMillis() createTime: number;
  @ApiMillis() updateTime: number;
  @ApiMillis() triggerTime: number;
}

@ExchangeRecord("The exchange's page of plan orders")
export class AlgoOrdersPageDto implements AlgoOrdersPage {
  @ApiProperty({ type: [PlanOrderDto] }) orders: PlanOrderDto[];
  @ApiProperty() hasMore: boolean;
}

const ORDER = {
  avgPrice: '0',
  clientOrderId: 'agent-7f3a',
  cumQuote: '0',
  executedQty: '0',
  orderId: '737185556881998184',
  origQty: '0.010',
  price: '64250.5',
  reduceOnly: false,
  side: 'BUY',
  positionSide: 'LONG',
  status: 'NEW',
  stopPrice: '0',
  symbol: 'BTCUSDT',
  time: 1795380000000,
  timeInForce: 'GTC',
  type: 'LIMIT',
  updateTime: 1795380000000,
  workingType: 'CONTRACT_PRICE',
};

/**
 * Example answers for the OpenAPI document: every field of the spec's tables, IDs as strings (a 64-bit literal in
 * TypeScript would be rounded before it reached the document), times in ms.
 */
export const ORDER_EXAMPLES = {
  openOrders: { data: [{ ...ORDER, priceProtect: false, priceMatch: 'NONE', selfTradePreventionMode: 'NONE', goodTillDate: 0 }] },
  orderHistory: { data: [{ ...ORDER, status: 'FILLED', executedQty: '0.010', cumQuote: '642.51', avgPrice: '64250.5' }] },
  order: { ...ORDER, status: 'CANCELED', updateTime: 1795380600000 },
  algoOrders: {
    orders: [
      {
        algoId: '737185556881997777',
        clientAlgoId: 'agent-sl-1',
        algoType: 'CONDITIONAL',
        orderType: 'STOP_MARKET',
        symbol: 'BTCUSDT',
        side: 'SELL',
        positionSide: 'LONG',
        timeInForce: 'GTC',
        quantity: '0.010',
        algoStatus: 'NEW',
        actualOrderId: '0',
        actualPrice: '0',
        triggerPrice: '62000',
        price: '0',
        workingType: 'MARK_PRICE',
        createTime: 1795380000000,
        updateTime: 1795380000000,
        triggerTime: 0,
      },
    ],
    hasMore: false,
  },
};
