import { ApiProperty } from '@nestjs/swagger';
import { ApiDecimal, ApiId, ApiMillis } from '#libs/api-docs';
import type { IncomeItem, IncomePage, Position, SymbolConfig } from '#libs/weex-client';
import { ExchangeRecord } from './exchange-record.js';

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

/**
 * Example answers for the OpenAPI document: every field of the spec's tables, IDs as strings (a 64-bit literal in
 * TypeScript would be rounded before it reached the document), times in ms.
 */
export const ACCOUNT_EXAMPLES = {
  positions: {
    data: [
      {
        id: '737185556881990001',
        asset: 'USDT',
        symbol: 'BTCUSDT',
        side: 'LONG',
        marginType: 'CROSSED',
        separatedMode: 'COMBINED',
        separatedOpenOrderId: '0',
        leverage: '10',
        size: '0.020',
        openValue: '1285.01',
        openFee: '0.77',
        fundingFee: '-0.12',
        marginSize: '128.50',
        isolatedMargin: '0',
        isAutoAppendIsolatedMargin: false,
        cumOpenSize: '0.020',
        cumOpenValue: '1285.01',
        cumOpenFee: '0.77',
        cumCloseSize: '0',
        cumCloseValue: '0',
        cumCloseFee: '0',
        cumFundingFee: '-0.12',
        cumLiquidateFee: '0',
        createdMatchSequenceId: '737185556881990100',
        updatedMatchSequenceId: '737185556881990180',
        createdTime: 1795300000000,
        updatedTime: 1795380000000,
        unrealizePnl: '3.40',
        liquidatePrice: '0',
      },
    ],
  },
  income: {
    hasNextPage: false,
    items: [
      {
        billId: '737185556881995555',
        asset: 'USDT',
        symbol: 'BTCUSDT',
        income: '-0.12',
        incomeType: 'position_funding',
        balance: '1021.55',
        fillFee: '0',
        time: 1795380000000,
        transferReason: 'UNKNOWN_TRANSFER_REASON',
      },
    ],
  },
  symbolConfig: {
    data: [
      { symbol: 'BTCUSDT', marginType: 'CROSSED', separatedType: 'COMBINED', crossLeverage: '10', isolatedLongLeverage: '10', isolatedShortLeverage: '10' },
    ],
  },
};
