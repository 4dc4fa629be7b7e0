import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiDecimal, ApiId, ApiMillis } from '#libs/api-docs';
import type {
  AlgoOrdersPage,
  CancelBatchOrdersResult,
  CancelOrderResult,
  CancelPlanResult,
  IncomeItem,
  IncomePage,
  Order,
  PlanOrder,
  Position,
  SpotBill,
  SymbolConfig,
  Trade,
} from '#libs/weex-client';

/**
 * The exchange's records as the account and order endpoints return them: every field of the spec's tables, IDs as
 * digit strings, amounts as decimal text, times in ms. Fields the exchange adds beyond the spec are passed on, so
 * each record allows more properties than it lists.
 */
const ExchangeRecord = (description: string): ClassDecorator => ApiSchema({ description, additionalProperties: true } as { description: string });

@ExchangeRecord('One position (spec operation 2, allPosition)')
export class PositionDto implements Position {
  @ApiId() id: string;
  @ApiProperty() asset: string;
  @ApiProperty() symbol: string;
  @ApiProperty({ description: 'LONG or SHORT' }) side: string;
  @ApiProperty({ description: 'CROSSED or ISOLATED' }) marginType: string;
  @ApiProperty({ description: 'COMBINED or SEPARATED' }) separatedMode: string;
  @ApiId() separatedOpenOrderId: string;
  @ApiDecimal() leverage: string;
  @ApiDecimal() size: string;
  @ApiDecimal() openValue: string;
  @ApiDecimal() openFee: string;
  @ApiDecimal() fundingFee: string;
  @ApiDecimal() marginSize: string;
  @ApiDecimal() isolatedMargin: string;
  @ApiProperty() isAutoAppendIsolatedMargin: boolean;
  @ApiDecimal() cumOpenSize: string;
  @ApiDecimal() cumOpenValue: string;
  @ApiDecimal() cumOpenFee: string;
  @ApiDecimal() cumCloseSize: string;
  @ApiDecimal() cumCloseValue: string;
  @ApiDecimal() cumCloseFee: string;
  @ApiDecimal() cumFundingFee: string;
  @ApiDecimal() cumLiquidateFee: string;
  @ApiId() createdMatchSequenceId: string;
  @ApiId() updatedMatchSequenceId: string;
  @ApiMillis() createdTime: number;
  @ApiMillis() updatedTime: number;
  @ApiDecimal() unrealizePnl: string;
  @ApiDecimal({ description: '`0`: low risk, no liquidation price' }) liquidatePrice: string;
}

export class PositionListDto {
  @ApiProperty({ type: [PositionDto] }) data: PositionDto[];
}

@ExchangeRecord('One income (bill) item (spec operation 3)')
export class IncomeItemDto implements IncomeItem {
  @ApiId() billId: string;
  @ApiProperty() asset: string;
  @ApiProperty() symbol: string;
  @ApiDecimal() income: string;
  @ApiProperty({ description: 'e.g. position_funding, order_fill_fee_income' }) incomeType: string;
  @ApiDecimal() balance: string;
  @ApiDecimal() fillFee: string;
  @ApiMillis() time: number;
  @ApiProperty({ description: 'e.g. USER_TRANSFER' }) transferReason: string;
}

@ExchangeRecord("The exchange's page of income items")
export class IncomePageDto implements IncomePage {
  @ApiProperty() hasNextPage: boolean;
  @ApiProperty({
    type: 'string',
    nullable: true,
    required: false,
    description: 'give it back as the `nextKey` query parameter, with the same other parameters, for the next page; null on the last',
  })
  nextKey?: string | null;
  @ApiProperty({ type: [IncomeItemDto] }) items: IncomeItemDto[];
}

@ExchangeRecord('Margin and leverage of one symbol (spec operation 9)')
export class SymbolConfigDto implements SymbolConfig {
  @ApiProperty() symbol: string;
  @ApiProperty({ description: 'CROSSED or ISOLATED' }) marginType: string;
  @ApiProperty({ description: 'COMBINED or SEPARATED' }) separatedType: string;
  @ApiDecimal() crossLeverage: string;
  @ApiDecimal() isolatedLongLeverage: string;
  @ApiDecimal() isolatedShortLeverage: string;
}

export class SymbolConfigListDto {
  @ApiProperty({ type: [SymbolConfigDto] }) data: SymbolConfigDto[];
}

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

@ExchangeRecord('One fill (spec operation 8)')
export class TradeDto implements Trade {
  @ApiId() id: string;
  @ApiId() orderId: string;
  @ApiProperty() symbol: string;
  @ApiProperty() buyer: boolean;
  @ApiDecimal() commission: string;
  @ApiProperty() commissionAsset: string;
  @ApiProperty() maker: boolean;
  @ApiDecimal() price: string;
  @ApiDecimal() qty: string;
  @ApiDecimal() quoteQty: string;
  @ApiDecimal() realizedPnl: string;
  @ApiProperty({ description: 'BUY or SELL' }) side: string;
  @ApiProperty({ description: 'LONG or SHORT' }) positionSide: string;
  @ApiMillis() time: number;
}

export class TradeListDto {
  @ApiProperty({ type: [TradeDto] }) data: TradeDto[];
}

@ExchangeRecord('One spot account bill (spec operation 10)')
export class SpotBillDto implements SpotBill {
  @ApiId() billId: string;
  @ApiProperty({ type: 'integer' }) coinId: number;
  @ApiProperty() coinName: string;
  @ApiProperty() bizType: string;
  @ApiDecimal() fillSize: string;
  @ApiDecimal() fillValue: string;
  @ApiDecimal() deltaAmount: string;
  @ApiDecimal() afterAmount: string;
  @ApiDecimal() fees: string;
  @ApiMillis() cTime: number;
}

export class SpotBillListDto {
  @ApiProperty({ type: [SpotBillDto] }) data: SpotBillDto[];
}

@ExchangeRecord('The outcome for one order of a batch cancel')
export class CancelOrderResultDto implements CancelOrderResult {
  @ApiProperty({ description: 'empty on success' }) err_code: string;
  @ApiProperty() err_msg: string;
  @ApiId() order_id: string;
  @ApiProperty() client_oid: string;
  @ApiProperty() result: boolean;
}

@ExchangeRecord('The result of a batch cancel (spec operation 11): refusals per order are in failInfos')
export class CancelBatchResultDto implements CancelBatchOrdersResult {
  @ApiProperty() result: boolean;
  @ApiProperty({ description: 'v2 notation, cmt_btcusdt' }) symbol: string;
  @ApiId({ isArray: true, example: ['737185556881998184'] }) orderIds: string[];
  @ApiProperty({ type: [String] }) clientOids: string[];
  @ApiProperty({ type: [CancelOrderResultDto] }) cancelOrderResultList: CancelOrderResultDto[];
  @ApiProperty({ type: [CancelOrderResultDto] }) failInfos: CancelOrderResultDto[];
}

@ExchangeRecord('The result of a plan-order cancel (spec operation 12): a refusal has result false and err_code')
export class CancelPlanResultDto implements CancelPlanResult {
  @ApiId() order_id: string;
  @ApiProperty({ type: 'string', nullable: true }) client_oid: string | null;
  @ApiProperty() symbol: string;
  @ApiProperty() result: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'null on success' }) err_code: string | null;
  @ApiProperty({ type: 'string', nullable: true }) err_msg: string | null;
}
