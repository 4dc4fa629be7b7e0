import { Injectable } from '@nestjs/common';
import type { ModelCallRef } from '#libs/audit-chain';
import type { FieldError } from '#libs/validation';
import { type DecisionFromCalls, decisionFromCalls } from './model-call-decision.js';
import { ModelCallsRepository, type StoredModelCallWithBodies } from './model-calls.repository.js';

/** A log's calls, checked: their links (in the log's hash), the fields they fill, or why they cannot. */
export interface ResolvedCalls {
  links: ModelCallRef[];
  decision?: DecisionFromCalls;
  errors: FieldError[];
}

/** What an AI log that names its model calls gets from them: a check that they are the account's, and fields to fill. */
@Injectable()
export class ModelCallDecisions {
  constructor(private readonly calls: ModelCallsRepository) {}

  /**
   * Checks that every one of `ids` is a call of the account, and gives each call's link (id and chain hash) in the
   * order given; with `fill`, also makes the log's fields from them (decisionFromCalls). The errors name
   * `modelCallIds.<index>` (or `modelCallIds`) and the rule.
   */
  async resolve(accountId: string, ids: string[], fill: boolean, maxExplanation: number): Promise<ResolvedCalls> {
    const calls = await this.withBodies(
      accountId,
      ids.map((id) => id.toLowerCase()),
    );
    const found = new Set(calls.map((call) => call.id));
    const errors = ids.flatMap((id, i) => (found.has(id.toLowerCase()) ? [] : [{ path: `modelCallIds.${i}`, message: `no model call ${id} in this account` }]));
    if (errors.length > 0) return { links: [], errors };
    return this.decide(calls, fill, maxExplanation);
  }

  /** What a log that names these calls (the account's, in the log's order) gets: their links, and with `fill` its fields. */
  decide(calls: StoredModelCallWithBodies[], fill: boolean, maxExplanation: number): ResolvedCalls {
    const links = calls.map((call) => ({ id: call.id, hash: call.hash }));
    if (!fill) return { links, errors: [] };
    const decision = decisionFromCalls(calls, maxExplanation);
    if ('error' in decision) {
      return { links: [], errors: [{ path: decision.index === undefined ? 'modelCallIds' : `modelCallIds.${decision.index}`, message: decision.error }] };
    }
    return { links, decision, errors: [] };
  }

  /** The answered calls of each trace, the latest `limit` of each, in chain order, and their bodies' bytes (not read). */
  async ofTraces(accountId: string, traceIds: string[], limit: number): Promise<Map<string, { ids: string[]; bytes: number }>> {
    const byTrace = new Map<string, { ids: string[]; bytes: number }>();
    for (const call of await this.calls.answeredInTraces(accountId, traceIds, limit)) {
      const trace = byTrace.get(call.traceId) ?? byTrace.set(call.traceId, { ids: [], bytes: 0 }).get(call.traceId)!;
      trace.ids.push(call.id);
      trace.bytes += call.bytes;
    }
    return byTrace;
  }

  /** The links (id and chain hash) of the account's calls among `ids`, by id: what a log naming them holds in its hash. */
  linkHashes(accountId: string, ids: string[]): Promise<Map<string, string>> {
    return this.calls.hashes(accountId, ids);
  }

  /** The account's calls among `ids`, with their bodies, in the order given (those not found left out). */
  async withBodies(accountId: string, ids: string[]): Promise<StoredModelCallWithBodies[]> {
    const found = new Map((await this.calls.findMany(accountId, ids)).map((call) => [call.id, call]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }
}
