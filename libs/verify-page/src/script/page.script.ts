/**
 * Part of the verifier page's script: the form and the answer. Everything from the file goes in with textContent,
 * never as markup (the page's CSP also asks for Trusted Types, so an innerHTML would throw). In Node there is no
 * document: the script then only hands its verifier to globalThis, for the unit test.
 */
export const PAGE_SCRIPT = String.raw`
// Browsers give WebCrypto only to secure contexts: a gateway on plain HTTP at another host than localhost gets none.
const NO_WEBCRYPTO =
  'This browser gives this page no WebCrypto, which it does only on https://, on localhost and for a file opened from disk: ' +
  'save this page (Ctrl+S) and open the saved file, or open the gateway over HTTPS.';
const hasWebCrypto = () => typeof crypto === 'object' && crypto !== null && typeof crypto.subtle === 'object' && crypto.subtle !== null;

/** POSIX seconds as an ISO time where a Date can hold them. */
const timeText = (seconds) => (BigInt(seconds) <= 8640000000000n ? new Date(Number(seconds) * 1000).toISOString() : seconds + ' s after 1970');

function startPage() {
  const $ = (id) => document.getElementById(id);
  const form = $('verify-form');
  const fileInput = $('proof-file');
  const keyInput = $('verifier-key');
  const witnessInput = $('witness-keys');
  const kInput = $('min-cosignatures');
  const originInput = $('expected-origin');
  let chosen;
  let generation = 0;
  // Counts the answers given, so that an answer like the last one is still seen as new (the browser test waits on it).
  let answers = 0;

  function choose(file) {
    chosen = file;
    $('file-name').textContent = file ? 'Chosen: ' + file.name + ' (' + file.size + ' bytes)' : 'No file chosen yet.';
  }

  function formError(message, field) {
    $('form-error').textContent = message;
    for (const input of [fileInput, keyInput, kInput]) input.removeAttribute('aria-invalid');
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  function item(list, text) {
    const li = document.createElement('li');
    li.textContent = text;
    list.append(li);
  }

  function render(report, witnessCount) {
    const result = $('result');
    result.hidden = false;
    result.dataset.verdict = report.ok ? 'verified' : 'not-verified';
    result.dataset.answers = String(++answers);
    $('verdict').textContent = report.ok ? 'Verified' : 'Not verified';
    $('details').hidden = !report.ok;
    if (!report.ok) {
      $('reason').textContent = report.reason;
      $('status').textContent = 'Not verified: ' + report.reason;
    } else {
      const cosigned = report.cosignatures.length;
      $('reason').textContent =
        'The checkpoint is signed by the given key' +
        (witnessCount ? ' and cosigned by ' + cosigned + ' of the ' + witnessCount + ' witness keys given' : '') +
        ', and the entry below is the log at seq ' + report.seq + ' of its signed tree.';
      $('status').textContent = 'Verified: log at seq ' + report.seq + ' of ' + report.origin + '.';
      $('origin').textContent = report.origin;
      $('tree-size').textContent = report.size;
      $('index').textContent = report.index;
      $('seq').textContent = report.seq;
      const cosigners = $('cosigners');
      cosigners.replaceChildren();
      for (const c of report.cosignatures) item(cosigners, c.name + ' (key ' + c.keyId + ') at ' + timeText(c.timestamp));
      if (cosigned === 0) item(cosigners, witnessCount ? 'none of the witness keys given' : 'no witness keys given');
      const others = $('unchecked');
      others.replaceChildren();
      for (const label of report.unchecked) item(others, label);
      if (report.unchecked.length === 0) item(others, 'none');
      $('extensions').textContent = report.extensions.join('\n') || 'none';
      const rows = $('field-rows');
      rows.replaceChildren();
      for (const field of report.fields) {
        const row = document.createElement('tr');
        const name = document.createElement('th');
        name.scope = 'row';
        name.textContent = field.key;
        const value = document.createElement('td');
        value.textContent = field.value;
        row.append(name, value);
        rows.append(row);
      }
      $('entry').textContent = report.entry;
      $('entry-laid-out').textContent = layOut(report.entry);
    }
    $('verdict').focus();
  }

  async function run() {
    const current = ++generation;
    const key = keyInput.value.trim();
    const witnesses = witnessInput.value.split('\n').map((line) => line.trim()).filter(Boolean);
    const k = kInput.value.trim();
    const origin = originInput.value.trim();
    if (!hasWebCrypto()) return formError(NO_WEBCRYPTO);
    if (!chosen) return formError('Choose the proof file (.tlog-proof) first.', fileInput);
    if (!key) return formError("Paste the gateway's verifier key first.", keyInput);
    if (k !== '' && !/^[0-9]{1,3}$/.test(k)) return formError('k must be a whole number from 0 to 999, or empty for all the witness keys given.', kInput);
    formError('');
    $('status').textContent = 'Checking ' + chosen.name + '...';
    form.setAttribute('aria-busy', 'true');
    let report;
    try {
      // A file past the limit is refused before it is read: a 10 MB one costs nothing.
      if (chosen.size > MAX_PROOF_BYTES) report = { ok: false, reason: 'malformed tlog proof: ' + chosen.size + ' bytes, the limit is ' + MAX_PROOF_BYTES };
      else {
        const bytes = new Uint8Array(await chosen.arrayBuffer());
        const policy = { key, witnesses, minCosignatures: k === '' ? undefined : Number(k), origin: origin === '' ? undefined : origin };
        report = await verifyProof(bytes, policy);
      }
    } catch (error) {
      report = { ok: false, reason: 'the proof could not be checked: ' + ((error && error.message) || String(error)) };
    }
    if (current !== generation) return;
    form.removeAttribute('aria-busy');
    render(report, witnesses.length);
  }

  fileInput.addEventListener('change', () => {
    choose(fileInput.files[0]);
    if (chosen && keyInput.value.trim()) run();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  // A file dropped anywhere on the page is the proof; the browser would otherwise leave the page to open it.
  const zone = $('drop-zone');
  document.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  document.addEventListener('dragleave', () => zone.classList.remove('over'));
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (!file) return;
    choose(file);
    if (keyInput.value.trim()) run();
    else formError("Paste the gateway's verifier key, then press Verify.", keyInput);
  });
  choose(undefined);
  if (!hasWebCrypto()) formError(NO_WEBCRYPTO);
}

if (typeof document === 'undefined') globalThis.tlogProofVerifier = Object.freeze({ verifyProof, layOut });
else startPage();
`;
