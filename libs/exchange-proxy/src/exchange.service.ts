import { Injectable } from '@nestjs/common';
import { OPERATIONS, type OperationAnswer, type OperationParams, type OperationRequest, type ParamOperation } from '#libs/weex-client';
import { exchangeId } from './dto/exchange-id.js';
import type { OperationDtoOf } from './dto/operation-dto.js';
import { ExchangeCallService } from './exchange-call.service.js';

/** Whose account a call is for: an agent's identity (AgentIdentity), of which only the account counts here. */
type AgentIdentity = { accountId: string };

/**
 * The exchange operations the API serves, between the controllers and the account's client: a controller names the
 * operation and hands over the request its DTO checked (`exchange.call(agent, 'openOrders', query)`); the call runs
 * for the agent's account, bounded in time (ExchangeCallService). Writes (the cancels) are sent once, never retried:
 * a 504 means the outcome is unknown.
 */
@Injectable()
export class ExchangeService {
  constructor(private readonly exchange: ExchangeCallService) {}

  call<K extends ParamOperation>(agent: AgentIdentity, operation: K, params: OperationDtoOf<K>): Promise<OperationAnswer<K>> {
    const request = clientRequest(operation, params as Record<string, unknown>) as OperationRequest<K>;
    return this.exchange.run(agent.accountId, operation, (client, options) => client.request(operation, request, options));
  }
}

/** The DTO's fields as the client takes them: IDs (digits in a query, numbers or bigints in a body) as exact digits. */
function clientRequest(operation: ParamOperation, params: Record<string, unknown>): Record<string, unknown> {
  const { fields } = OPERATIONS[operation].params as OperationParams;
  const request: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || !(name in fields)) continue;
    const { kind } = fields[name];
    request[name] = kind === 'id' ? exchangeId(value) : kind === 'ids' ? (value as unknown[]).map(exchangeId) : value;
  }
  return request;
}
