import { ApiProperty } from '@nestjs/swagger';
import { ApiDecimal, ApiId, ApiMillis } from '#libs/api-docs';
import type { SpotBill } from '#libs/weex-client';
import { ExchangeRecord } from './exchange-record.js';

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

/**
 * Example answers for the OpenAPI document: every field of the spec's tables, IDs as strings (a 64-bit literal in
 * TypeScript would be rounded before it reached the document), times in ms.
 */
export const SPOT_EXAMPLES = {
  spotBills: {
    data: [
      {
        billId: '1337788990011',
        coinId: 2,
        coinName: 'USDT',
        bizType: 'deposit',
        fillSize: '0',
        fillValue: '0',
        deltaAmount: '500',
        afterAmount: '1500',
        fees: '0',
        cTime: 1795380000000,
      },
    ],
  },
};
