/**
 * Part of the verifier page's script: the c2sp.org/tlog-proof@v1 file, RFC 9162 inclusion, and verifyProof, which
 * reaches the verdicts (and gives the reasons) of verifyProofFile in libs/audit-chain.
 */
export const PROOF_SCRIPT = String.raw`
const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

function proofError(message) {
  refuse('malformed tlog proof: ' + message);
}

/** Parses a proof strictly: every line in its place, canonical base64, 32-byte hashes, a well-formed signed checkpoint. */
function parseTlogProof(bytes) {
  if (bytes.length > MAX_PROOF_BYTES) proofError(bytes.length + ' bytes, the limit is ' + MAX_PROOF_BYTES);
  let text;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    refuse('malformed tlog proof: the proof is not valid UTF-8');
  }
  const lineEnd = (from) => {
    const end = text.indexOf('\n', from);
    if (end < 0) proofError('ends without a newline before the checkpoint');
    return end;
  };
  let at = 0;
  let end = lineEnd(at);
  if (text.slice(at, end) !== TLOG_PROOF_HEADER) proofError('first line must be ' + TLOG_PROOF_HEADER);
  at = end + 1;
  end = lineEnd(at);
  let extra;
  if (text.startsWith('extra ', at)) {
    extra = decodeBase64(text.slice(at + 6, end));
    if (extra === undefined) proofError('extra data is not canonical standard base64');
    at = end + 1;
    end = lineEnd(at);
  }
  if (!text.startsWith('index ', at)) proofError('missing index line');
  const index = parseDecimal(text.slice(at + 6, end), UINT64_MAX);
  if (index === undefined) proofError('index is not a decimal uint64 without leading zeros');
  at = end + 1;
  const hashes = [];
  for (end = lineEnd(at); end > at; at = end + 1, end = lineEnd(at)) {
    if (hashes.length === MAX_PROOF_HASHES) proofError('more than ' + MAX_PROOF_HASHES + ' proof hashes');
    const where = 'proof hash ' + (hashes.length + 1);
    const hash = decodeBase64(text.slice(at, end));
    if (hash === undefined) proofError(where + ' is not canonical standard base64');
    if (hash.length !== HASH_SIZE) proofError(where + ' is ' + hash.length + ' bytes, not ' + HASH_SIZE);
    hashes.push(hash);
  }
  const checkpoint = text.slice(end + 1);
  // The checkpoint must be one a verifier can open; whether its signatures are any good is openCheckpoint's business.
  let origin;
  try {
    origin = parseCheckpoint(parseNote(checkpoint).text).origin;
  } catch (error) {
    if (error instanceof Refusal) proofError('checkpoint: ' + error.message);
    throw error;
  }
  return { extra, index, hashes, checkpoint, origin };
}

const leafHash = (entry) => sha256(Uint8Array.of(0), entry);
const nodeHash = (left, right) => sha256(Uint8Array.of(1), left, right);

/** RFC 9162 section 2.1.3.2: undefined when the proof leads from the leaf at index to the root, else why not. */
async function inclusionProblem(leaf, index, size, proof, root) {
  if (index >= size) return 'index ' + index + ' is not below size ' + size;
  let fn = index;
  let sn = size - 1n;
  let hash = leaf;
  for (const sibling of proof) {
    if (sn === 0n) return 'proof is too long: ' + proof.length + ' hashes';
    if ((fn & 1n) === 1n || fn === sn) {
      hash = await nodeHash(sibling, hash);
      if ((fn & 1n) === 0n) {
        while (fn !== 0n && (fn & 1n) === 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      hash = await nodeHash(hash, sibling);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) return 'proof is too short: ' + proof.length + ' hashes';
  return sameBytes(hash, root) ? undefined : 'root mismatch: the proof leads to another root';
}

/**
 * Checks a proof file of the gateway with nothing else: the checkpoint's signature by policy.key, the witnesses'
 * cosignatures (policy.minCosignatures of policy.witnesses, by default all), the inclusion of the entry carried on the
 * extra line, and that the entry is the log at that index of that account (its seq and accountId).
 */
async function verifyProof(bytes, policy) {
  try {
    return await verifyOrRefuse(bytes, policy);
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

async function verifyOrRefuse(bytes, policy) {
  const proof = parseTlogProof(bytes);
  const origin = policy.origin === undefined ? proof.origin : policy.origin;
  const witnesses = [];
  for (const vkey of policy.witnesses || []) witnesses.push(await cosignatureVerifier(vkey));
  const log = await logVerifier(policy.key);
  const opened = await openCheckpoint(proof.checkpoint, origin, log, witnesses);
  const cosigned = opened.cosignatures;
  const needed = policy.minCosignatures === undefined ? witnesses.length : policy.minCosignatures;
  if (cosigned.length < needed) {
    const names = cosigned.map((c) => c.name).join(', ') || 'none';
    refuse(cosigned.length + ' of the witnesses given cosigned the checkpoint (' + names + '); ' + needed + ' are required');
  }
  if (proof.extra === undefined) refuse('the proof carries no entry (no extra line): there is nothing to check it against');
  const { size, rootHash, extensions } = opened.checkpoint;
  const problem = await inclusionProblem(await leafHash(proof.extra), proof.index, size, proof.hashes, rootHash);
  if (problem) refuse('the entry is not at index ' + proof.index + ' of the signed tree of ' + size + ': ' + problem);
  const entry = lenientUtf8.decode(proof.extra);
  const fields = readEntry(entry, proof.index, origin);
  return {
    ok: true,
    origin,
    size: String(size),
    index: String(proof.index),
    seq: String(proof.index + 1n),
    entry,
    fields,
    cosignatures: cosigned.map((c) => ({ name: c.name, keyId: c.keyId, timestamp: String(c.timestamp) })),
    extensions,
    unchecked: opened.unverified,
  };
}
`;
