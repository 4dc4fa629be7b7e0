import { ApiProperty } from '@nestjs/swagger';
import { ApiDecimal, ApiId, ApiMillis } from '#libs/api-docs';
import type { Trade } from '#libs/weex-client';
import { ExchangeRecord } from './exchange-record.js';

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

/**
 * Example answers for the OpenAPI document: every field of the spec's tables, IDs as strings (a 64-bit literal in
 * TypeScript would be rounded before it reached the document), times in ms.
 */
export const TRADE_EXAMPLES = {
  trades: {
    data: [
      {
        id: '737185556881998801',
        orderId: '737185556881998184',
        symbol: 'BTCUSDT',
        buyer: true,
        commission: '0.38',
        commissionAsset: 'USDT',
        maker: false,
        price: '64250.5',
        qty: '0.010',
        quoteQty: '642.51',
        realizedPnl: '0',
        side: 'BUY',
        positionSide: 'LONG',
        time: 1795380000000,
      },
    ],
  },
};
