import { Injectable } from '@nestjs/common';
import type { FieldError } from '#libs/validation';
import { type DecisionFromCalls, decisionFromCalls } from './model-call-decision.js';
import { ModelCallsRepository } from './model-calls.repository.js';

/** What an AI log that names its model calls gets from them: a check that they are the account's, and fields to fill. */
@Injectable()
export class ModelCallDecisions {
  constructor(private readonly calls: ModelCallsRepository) {}

  /**
   * Checks that every one of `ids` is a call of the account; with `fill`, also makes the log's fields from them
   * (decisionFromCalls). The errors name `modelCallIds.<index>` (or `modelCallIds`) and the rule.
   */
  async resolve(accountId: string, ids: string[], fill: boolean, maxExplanation: number): Promise<{ decision?: DecisionFromCalls; errors: FieldError[] }> {
    const found = new Map(
      (
        await this.calls.findMany(
          accountId,
          ids.map((id) => id.toLowerCase()),
        )
      ).map((call) => [call.id, call]),
    );
    const errors = ids.flatMap((id, i) => (found.has(id.toLowerCase()) ? [] : [{ path: `modelCallIds.${i}`, message: `no model call ${id} in this account` }]));
    if (errors.length > 0 || !fill) return { errors };
    const decision = decisionFromCalls(
      ids.map((id) => found.get(id.toLowerCase())!),
      maxExplanation,
    );
    if ('error' in decision)
      return { errors: [{ path: decision.index === undefined ? 'modelCallIds' : `modelCallIds.${decision.index}`, message: decision.error }] };
    return { decision, errors: [] };
  }
}
