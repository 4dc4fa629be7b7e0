import { ApiProperty } from '@nestjs/swagger';
import { ApiId } from '#libs/api-docs';
import type { CancelBatchOrdersResult, CancelOrderResult, CancelPlanResult } from '#libs/weex-client';
import { ExchangeRecord } from './exchange-record.js';

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

/**
 * Example answers for the OpenAPI document: every field of the spec's tables, IDs as strings (a 64-bit literal in
 * TypeScript would be rounded before it reached the document), times in ms.
 */
export const CANCEL_EXAMPLES = {
  cancelBatch: {
    result: true,
    symbol: 'cmt_btcusdt',
    orderIds: ['737185556881998184'],
    clientOids: ['agent-7f3a'],
    cancelOrderResultList: [{ err_code: '', err_msg: '', order_id: '737185556881998184', client_oid: 'agent-7f3a', result: true }],
    failInfos: [],
  },
  cancelPlan: { order_id: '737185556881997777', client_oid: 'agent-sl-1', symbol: 'cmt_btcusdt', result: true, err_code: null, err_msg: null },
};
