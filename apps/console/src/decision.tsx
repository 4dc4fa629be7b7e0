import { useState } from 'preact/hooks';
import { type JsonNode, tlogProofVerifier } from 'tlog-verifier';
import { ActionButton } from './action-button';
import { asApiError } from './api';
import { Attempts } from './attempts';
import { useConsole } from './context';
import { when } from './format';
import { JsonView, toNode } from './json-view';
import { LogText } from './log-text';
import { OrderEvidence } from './order-evidence';
import { ProofCheck } from './proof-check';
import type { Shown } from './proof-fields';
import { Refusal } from './refusal';
import { ModelCalls } from './model-calls';
import type { LogDetail, ModelCallSummary } from './types';
import { useFetch } from './use-fetch';

/** Until its upload is over, a log is looked at again this often: its attempts and status appear as they happen. */
const UNTIL_FINAL_MS = 1500;
const FINAL = new Set(['uploaded', 'failed']);

interface Read {
  log: LogDetail;
  input: { node: JsonNode; source: string };
  output: { node: JsonNode; source: string };
  /** The fields shown that the proof's entry also holds, as drawn here; null for a log accepted before the chain. */
  shown: Shown | null;
  /** The model calls the log names, read from GET /v1/model-calls/:id. */
  calls: ModelCallSummary[];
}

/** The answer read twice: as plain JSON for its fields, and losslessly for input and output (no digit lost). */
function read(text: string, calls: ModelCallSummary[]): Read {
  const log = JSON.parse(text) as LogDetail & { input: unknown; output: unknown };
  let lossless: JsonNode | undefined;
  try {
    lossless = tlogProofVerifier.parseJsonLosslessly(text);
  } catch {
    // Nested deeper than the verifier reads: JSON.parse's values, which may round a long number.
  }
  const part = (name: 'input' | 'output') => {
    const node = lossless?.k === 'o' ? lossless.members.get(name) : undefined;
    return node ? { node, source: text.slice(node.a, node.b) } : { node: toNode(log[name]), source: JSON.stringify(log[name]) };
  };
  const input = part('input');
  const output = part('output');
  const { id, model, stage, orderId, receivedAt, explanation, chain } = log;
  const modelCalls = calls.map((call) => ({ id: call.id, hash: call.chain.hash }));
  const shown = chain && { id, model, stage, orderId, receivedAt, explanation, input: input.node, output: output.node, chain, modelCalls };
  return { log, input, output, shown, calls };
}

/** One decision: what the model saw and said, its uploads, the order it covers, and its proof checked here. */
export function Decision({ id }: { id: string }) {
  const { api, session } = useConsole();
  const { data, error, reload } = useFetch(
    async () => {
      const text = await api.text(`/v1/ai-logs/${encodeURIComponent(id)}`);
      const ids = (JSON.parse(text) as LogDetail).modelCallIds ?? [];
      const calls = await Promise.all(ids.map((call) => api.json<ModelCallSummary>(`/v1/model-calls/${encodeURIComponent(call)}`)));
      return read(text, calls);
    },
    [api, id],
    (d) => (d && !FINAL.has(d.log.status) ? UNTIL_FINAL_MS : undefined),
  );
  // The same article and heading as the loaded view, so that the heading keeps the focus when the log arrives.
  if (!data)
    return (
      <article class="decision">
        <p>
          <a href="#/logs">All decisions</a>
        </p>
        <h1 tabIndex={-1}>Decision</h1>
        {error ? <Refusal error={error} what={`Decision ${id}`} /> : <p role="status">Loading…</p>}
      </article>
    );
  const { log, input, output, shown } = data;
  return (
    <article class="decision">
      <p>
        <a href="#/logs">All decisions</a>
      </p>
      <h1 tabIndex={-1}>
        Decision <code class="id">{log.id}</code>
      </h1>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`status status-${log.status}`}>{log.status}</span>
        </dd>
        <dt>Model and stage</dt>
        <dd>
          <LogText text={log.model} /> · <LogText text={log.stage} />
        </dd>
        <dt>Order</dt>
        <dd>{log.orderId ? <LogText text={log.orderId} /> : 'none'}</dd>
        <dt>Received</dt>
        <dd>{when(log.receivedAt)}</dd>
        <dt>Uploaded</dt>
        <dd>{log.uploadedAt ? `${when(log.uploadedAt)} to the ${log.target}` : `not yet (uploads go to the ${log.target})`}</dd>
        {log.lastError && (
          <>
            <dt>Last error</dt>
            <dd class="wrap">
              <LogText text={log.lastError} />
            </dd>
          </>
        )}
      </dl>
      {session.role === 'admin' && <RetryButton id={log.id} failed={log.status === 'failed'} onQueued={reload} />}
      {error && <Refusal error={error} what="The decision could not be read again" />}
      <section aria-labelledby="explanation-heading">
        <h2 id="explanation-heading">Explanation</h2>
        <p class="prose">
          <LogText text={log.explanation} />
        </p>
      </section>
      <section aria-labelledby="input-heading">
        <h2 id="input-heading">Input</h2>
        <JsonView {...input} />
      </section>
      <section aria-labelledby="output-heading">
        <h2 id="output-heading">Output</h2>
        <JsonView {...output} />
      </section>
      <section aria-labelledby="attempts-heading">
        <h2 id="attempts-heading">Upload attempts</h2>
        <Attempts attempts={log.attempts} />
      </section>
      <section aria-labelledby="chain-heading">
        <h2 id="chain-heading">Chain link</h2>
        {log.chain ? (
          <dl class="facts hashes">
            <dt>Seq</dt>
            <dd>{log.chain.seq}</dd>
            <dt>Hash</dt>
            <dd>
              <code>{log.chain.hash}</code>
            </dd>
            <dt>Previous hash</dt>
            <dd>
              <code>{log.chain.prevHash}</code>
            </dd>
          </dl>
        ) : (
          <p>Accepted before the chain existed: no link.</p>
        )}
      </section>
      {data.calls.length > 0 && <ModelCalls calls={data.calls} />}
      {log.orderId && <OrderEvidence orderId={log.orderId} logId={log.id} />}
      {shown && <ProofCheck shown={shown} />}
    </article>
  );
}

/** An admin's retry of a failed log: back to queued, due now (POST /admin/logs/:id/retry). */
/**
 * Rendered for an admin whatever the status, so that "Queued again." outlives the reload that takes the log out of
 * `failed`; the button itself is there only while the log is failed, and is disabled while its POST is out.
 */
function RetryButton({ id, failed, onQueued }: { id: string; failed: boolean; onQueued(): void }) {
  const { api } = useConsole();
  const [message, setMessage] = useState<string>();
  const retry = async () => {
    try {
      await api.post(`/admin/logs/${encodeURIComponent(id)}/retry`);
      setMessage('Queued again.');
      onQueued();
    } catch (failure) {
      setMessage(`Not retried: ${asApiError(failure).message}`);
    }
  };
  if (!failed && message === undefined) return null;
  return (
    <p class="actions">
      {failed && <ActionButton onPress={retry}>Retry upload</ActionButton>}
      <span role="status">{message}</span>
    </p>
  );
}
