import { when } from './format';
import { LogText } from './log-text';
import type { ModelCallSummary } from './types';

/**
 * The model calls the decision names, in its order, as the gateway recorded them: who answered, how it ended, the
 * tokens, and each call's chain hash, which the log's proof pins (the verdict below compares them).
 */
export function ModelCalls({ calls }: { calls: ModelCallSummary[] }) {
  return (
    <section aria-labelledby="model-calls-heading">
      <h2 id="model-calls-heading">Model calls behind it</h2>
      <div class="scroll">
        <table class="model-calls">
          <caption class="sr-only">The model calls this decision names, in its order</caption>
          <thead>
            <tr>
              <th scope="col">Call</th>
              <th scope="col">Model</th>
              <th scope="col">Outcome</th>
              <th scope="col">Started</th>
              <th scope="col">Tokens in / out</th>
              <th scope="col">Chain hash</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((call) => (
              <tr key={call.id}>
                <td>
                  <code>{call.id}</code>
                </td>
                <td class="wrap">
                  <LogText text={call.answeredModel ?? call.requestedModel ?? '—'} />
                </td>
                <td>
                  <span class={`outcome outcome-${call.outcome}`}>{call.outcome}</span> {call.httpStatus ?? ''}
                </td>
                <td>
                  <time dateTime={call.startedAt}>{when(call.startedAt)}</time>
                </td>
                <td>
                  {call.usage.promptTokens ?? '—'} / {call.usage.completionTokens ?? '—'}
                </td>
                <td>
                  <code>{call.chain.hash}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
