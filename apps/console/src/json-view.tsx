import { type JsonNode, tlogProofVerifier } from 'tlog-verifier';
import { plural } from './format';
import { LogText } from './log-text';

/** Strings longer than this fold, showing their start, so that one long prompt does not bury the rest. */
const LONG_STRING = 400;

/**
 * A log's input or output, foldable, every number with the digits it was posted with (the verifier's lossless
 * reading), every value rendered as text. `source` is its JSON text, also shown laid out.
 */
export function JsonView({ node, source }: { node: JsonNode; source: string }) {
  return (
    <div class="json">
      <JsonValue node={node} depth={0} />
      <details class="json-text">
        <summary>As JSON text</summary>
        <pre>
          <LogText text={tlogProofVerifier.layOut(source)} />
        </pre>
      </details>
    </div>
  );
}

function JsonValue({ node, depth }: { node: JsonNode; depth: number }) {
  if (node.k === 'o' || node.k === 'a') {
    const entries: [string, JsonNode][] = node.k === 'o' ? [...node.members] : node.items.map((item, i) => [String(i), item]);
    if (entries.length === 0) return <span class="json-literal">{node.k === 'o' ? '{}' : '[]'}</span>;
    return (
      <details class="json-node" open={depth < 2}>
        <summary>{node.k === 'o' ? `{ ${plural(entries.length, 'key')} }` : `[ ${plural(entries.length, 'item')} ]`}</summary>
        <ul>
          {entries.map(([key, child]) => (
            <li key={key}>
              <span class="json-key">{node.k === 'o' ? <LogText text={JSON.stringify(key)} /> : key}</span>: <JsonValue node={child} depth={depth + 1} />
            </li>
          ))}
        </ul>
      </details>
    );
  }
  if (node.k !== 's') return <span class={node.k === 'n' ? 'json-number' : 'json-literal'}>{node.text}</span>;
  if (node.v.length <= LONG_STRING)
    return (
      <span class="json-string">
        "<LogText text={node.v} />"
      </span>
    );
  return (
    <details class="json-long">
      <summary>
        <span class="json-string">
          "<LogText text={node.v.slice(0, 120)} />
          …"
        </span>{' '}
        ({node.v.length} characters)
      </summary>
      <span class="json-string">
        "<LogText text={node.v} />"
      </span>
    </details>
  );
}

/** A parsed JSON value as the verifier's nodes: the fallback where its lossless reading refuses the text. */
export function toNode(value: unknown): JsonNode {
  const span = { a: 0, b: 0 };
  if (typeof value === 'string') return { ...span, k: 's', v: value };
  if (Array.isArray(value)) return { ...span, k: 'a', items: value.map(toNode) };
  if (value !== null && typeof value === 'object') return { ...span, k: 'o', members: new Map(Object.entries(value).map(([k, v]) => [k, toNode(v)])) };
  return { ...span, k: typeof value === 'number' ? 'n' : 'l', text: String(value) };
}
