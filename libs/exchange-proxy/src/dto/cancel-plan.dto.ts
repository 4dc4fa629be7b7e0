import { IsExchangeId, IsSymbol } from './param-rules.js';

/** POST /v1/plan-orders/cancel (spec operation 12): the symbol and the plan order's ID, both required. */
export class CancelPlanDto {
  @IsSymbol()
  symbol: string;

  /** The plan order's algoId: a JSON integer of any size or a string of digits. */
  @IsExchangeId()
  orderId: unknown;
}
