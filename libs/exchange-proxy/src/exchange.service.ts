import { Injectable } from '@nestjs/common';
import type { CancelBatchOrdersRequest } from '#libs/weex-client';
import type * as Dto from './dto/exchange-dtos.js';
import { exchangeId } from './dto/exchange-id.js';
import { ExchangeCallService } from './exchange-call.service.js';

/** Whose account a call is for: an agent's identity (AgentIdentity), of which only the account counts here. */
type AgentIdentity = { accountId: string };

const id = (value: string | undefined) => (value === undefined ? undefined : exchangeId(value));

/**
 * The exchange operations the API serves, one method each, between the controllers and the account's client: it
 * turns a checked request (its DTO) into the client's, with IDs as exact 64-bit values, and runs it for the agent's
 * account, bounded in time (ExchangeCallService).
 */
@Injectable()
export class ExchangeService {
  constructor(private readonly exchange: ExchangeCallService) {}

  positions(agent: AgentIdentity) {
    return this.exchange.run(agent.accountId, 'allPositions', (client, o) => client.allPositions(o));
  }

  income(agent: AgentIdentity, query: Dto.IncomeParams) {
    return this.exchange.run(agent.accountId, 'income', (client, o) => client.income({ ...query }, o));
  }

  symbolConfig(agent: AgentIdentity, { symbol }: Dto.SymbolConfigParams) {
    return this.exchange.run(agent.accountId, 'symbolConfig', (client, o) => client.symbolConfig({ symbol }, o));
  }

  openOrders(agent: AgentIdentity, { orderId, ...query }: Dto.OpenOrdersParams) {
    return this.exchange.run(agent.accountId, 'openOrders', (client, o) => client.openOrders({ ...query, orderId: id(orderId) }, o));
  }

  orderHistory(agent: AgentIdentity, query: Dto.OrderHistoryParams) {
    return this.exchange.run(agent.accountId, 'orderHistory', (client, o) => client.orderHistory({ ...query }, o));
  }

  order(agent: AgentIdentity, orderId: string) {
    return this.exchange.run(agent.accountId, 'orderInfo', (client, o) => client.orderInfo({ orderId: exchangeId(orderId) }, o));
  }

  algoOrders(agent: AgentIdentity, query: Dto.AlgoOrdersParams) {
    return this.exchange.run(agent.accountId, 'algoOrders', (client, o) => client.algoOrders({ ...query }, o));
  }

  trades(agent: AgentIdentity, { orderId, ...query }: Dto.UserTradesParams) {
    return this.exchange.run(agent.accountId, 'userTrades', (client, o) => client.userTrades({ ...query, orderId: id(orderId) }, o));
  }

  spotBills(agent: AgentIdentity, query: Dto.SpotBillsParams) {
    return this.exchange.run(agent.accountId, 'spotBills', (client, o) => client.spotBills({ ...query }, o));
  }

  /** Sent once, never retried: a 504 means the outcome is unknown. */
  cancelOrders(agent: AgentIdentity, { symbol, ids, cids }: Dto.CancelBatchOrdersParams) {
    const request: CancelBatchOrdersRequest = ids ? { symbol, ids: ids.map(exchangeId) } : { symbol, cids: cids! };
    return this.exchange.run(agent.accountId, 'cancelBatchOrders', (client, o) => client.cancelBatchOrders(request, o));
  }

  /** Sent once, never retried: a 504 means the outcome is unknown. */
  cancelPlan(agent: AgentIdentity, { symbol, orderId }: Dto.CancelPlanParams) {
    return this.exchange.run(agent.accountId, 'cancelPlan', (client, o) => client.cancelPlan({ symbol, orderId: exchangeId(orderId) }, o));
  }
}
