/**
 * The verifier page's markup: a form whose every field has a label and a hint, a live status line, and the answer,
 * filled in by the script with text only. Nothing here comes from a request: the page is the same bytes for everyone.
 */
export const PAGE_BODY = `
<main>
<h1>Verify one decision of the AI-log gateway</h1>
<p class="muted">Checks a <code>.tlog-proof</code> file (<code>GET /v1/ai-logs/:id/proof</code>) in this page alone: the
checkpoint's signature by the gateway's key, the witnesses' cosignatures, that the decision is a leaf of the signed
Merkle tree (RFC 9162), and that it is the log at that seq of that account. Nothing is sent anywhere: the page may be
saved and opened from disk.</p>
<noscript><p>This page needs JavaScript to check a proof.</p></noscript>

<form id="verify-form" novalidate>
  <div id="drop-zone">
    <label for="proof-file">Proof file (.tlog-proof)</label>
    <input id="proof-file" type="file" accept=".tlog-proof,text/plain" aria-describedby="file-help file-name">
    <p id="file-help" class="help">Choose the file, or drop it anywhere on this page.</p>
    <p id="file-name" class="help"></p>
  </div>

  <label for="verifier-key">Gateway verifier key</label>
  <input id="verifier-key" type="text" autocomplete="off" spellcheck="false" aria-describedby="key-help">
  <p id="key-help" class="help">One line, <code>name+keyid+key</code>, from <code>GET /v1/audit/verifier-key</code>: take it
  from where the team published it, not from the same place as the proof.</p>

  <label for="witness-keys">Witness keys (optional)</label>
  <textarea id="witness-keys" rows="3" spellcheck="false" aria-describedby="witness-help"></textarea>
  <p id="witness-help" class="help">One verifier key per line (cosignature/v1 keys, or a witness's note key).</p>

  <label for="min-cosignatures">Cosignatures required (k)</label>
  <input id="min-cosignatures" type="text" inputmode="numeric" autocomplete="off" aria-describedby="k-help">
  <p id="k-help" class="help">How many of the witness keys above must have cosigned; empty means all of them.</p>

  <label for="expected-origin">Expected origin (optional)</label>
  <input id="expected-origin" type="text" autocomplete="off" spellcheck="false" aria-describedby="origin-help">
  <p id="origin-help" class="help">The log you expect, such as <code>weex-ai-log-gateway.local/default</code>; empty accepts the
  one the proof names, which is shown with the answer.</p>

  <button id="verify-button" type="submit">Verify</button>
  <p id="form-error" role="alert"></p>
</form>

<p id="status" role="status" class="sr-only"></p>

<section id="result" aria-labelledby="verdict" hidden>
  <h2 id="verdict" tabindex="-1"></h2>
  <p id="reason"></p>
  <div id="details" hidden>
    <dl>
      <dt>Origin (the account's log)</dt><dd id="origin"></dd>
      <dt>Tree size (logs signed)</dt><dd id="tree-size"></dd>
      <dt>Leaf index</dt><dd id="index"></dd>
      <dt>Seq</dt><dd id="seq"></dd>
      <dt>Cosigned by</dt><dd><ul id="cosigners"></ul></dd>
      <dt>Other signatures (keys not given, not checked)</dt><dd><ul id="unchecked"></ul></dd>
      <dt>Checkpoint extensions</dt><dd id="extensions"></dd>
    </dl>
    <h3>The decision as accepted</h3>
    <table>
      <caption>The entry's fields; values other than strings exactly as written (numbers digit for digit)</caption>
      <thead><tr><th scope="col">field</th><th scope="col">value</th></tr></thead>
      <tbody id="field-rows"></tbody>
    </table>
    <h3 id="entry-heading">Exact text: the bytes the leaf hash covers</h3>
    <pre id="entry" tabindex="0" aria-labelledby="entry-heading"></pre>
    <details>
      <summary>The same text laid out for reading</summary>
      <pre id="entry-laid-out" tabindex="0" aria-label="The entry laid out for reading"></pre>
    </details>
  </div>
</section>
</main>
`;
