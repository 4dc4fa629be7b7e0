import { IsExchangeId } from './param-rules.js';

/** The `:orderId` of GET /v1/orders/:orderId (spec operation 6). */
export class OrderPathDto {
  @IsExchangeId()
  orderId: string;
}
