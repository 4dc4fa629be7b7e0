/**
 * Part of the verifier page's script: verifier keys, signed notes, checkpoints and cosignatures (c2sp.org/signed-note,
 * tlog-checkpoint, tlog-cosignature), with the rules and the words of libs/signed-note, whose verdicts it must reach.
 */
export const NOTE_SCRIPT = String.raw`
const TYPE_ED25519 = 0x01;
const TYPE_COSIGNATURE = 0x04;
const SIGNATURE_PREFIX = '\u2014 ';

const keyLabel = (name, keyId) => name + '+' + hex8(keyId);
const isValidKeyName = (name) => name.length > 0 && name.isWellFormed() && !/[\p{White_Space}+]/u.test(name);

/** SHA-256(key name, newline, signature type, public key), its first 4 bytes big-endian. */
async function computeKeyId(name, type, publicKey) {
  return readUint32(await sha256(utf8(name + '\n'), Uint8Array.of(type), publicKey), 0);
}

/** A vkey, name+hexid+base64(type, key), checked as libs/signed-note checks it; the key imported for WebCrypto. */
async function parseVerifierKey(text) {
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) refuse('verifier key: expected <name>+<hex key ID>+<base64 key>');
  const name = text.slice(0, first);
  const hex = text.slice(first + 1, second);
  if (!isValidKeyName(name)) refuse('invalid key name ' + JSON.stringify(name) + ': empty, or contains white space or "+"');
  if (!/^[0-9a-f]{8}$/.test(hex)) refuse('verifier key: key ID must be 8 lowercase hex digits');
  const material = decodeBase64(text.slice(second + 1));
  if (material === undefined) refuse('verifier key: key material is not canonical standard base64');
  if (material.length === 0) refuse('verifier key: empty key material');
  const keyId = Number.parseInt(hex, 16);
  const label = keyLabel(name, keyId);
  const type = material[0];
  if (type !== TYPE_ED25519 && type !== TYPE_COSIGNATURE) {
    refuse('verifier key ' + label + ': unsupported signature type 0x' + type.toString(16).padStart(2, '0'));
  }
  const publicKey = material.subarray(1);
  if (publicKey.length !== 32) refuse('verifier key ' + label + ': Ed25519 public key must be 32 bytes');
  if ((await computeKeyId(name, type, publicKey)) !== keyId) refuse('verifier key ' + label + ': key ID does not match the key');
  let cryptoKey;
  try {
    cryptoKey = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  } catch (error) {
    if (error && error.name === 'NotSupportedError') refuse('this browser cannot check Ed25519 signatures (WebCrypto): use a current browser, or npm run audit:verify');
    refuse('verifier key ' + label + ': not a usable Ed25519 public key');
  }
  return { name, keyId, type, publicKey, cryptoKey };
}

async function ed25519Verify(cryptoKey, message, signature) {
  if (signature.length !== 64) return false;
  try {
    return await crypto.subtle.verify({ name: 'Ed25519' }, cryptoKey, signature, message);
  } catch {
    return false;
  }
}

/** The log's key: a plain Ed25519 (0x01) key that signs the note text. */
async function logVerifier(vkey) {
  const key = await parseVerifierKey(vkey);
  if (key.type !== TYPE_ED25519) refuse('verifier key ' + keyLabel(key.name, key.keyId) + ' is not a plain Ed25519 (0x01) key');
  return { name: key.name, keyId: key.keyId, verify: (note, signature) => ed25519Verify(key.cryptoKey, note.bytes, signature) };
}

/**
 * A witness's key (cosignature/v1). A 0x01 vkey is the same public key, its key ID recomputed for type 0x04, since
 * witnesses often publish their note key. A cosignature is an 8-byte time, then a signature over the header, the time
 * and the whole checkpoint text.
 */
async function cosignatureVerifier(vkey) {
  const key = await parseVerifierKey(vkey);
  const keyId = key.type === TYPE_ED25519 ? await computeKeyId(key.name, TYPE_COSIGNATURE, key.publicKey) : key.keyId;
  const verify = async (note, signature) => {
    if (signature.length !== 8 + 64) return false;
    const time = readUint64(signature, 0);
    if (time > INT64_MAX) return false;
    const message = utf8('cosignature/v1\ntime ' + time + '\n' + note.text);
    return ed25519Verify(key.cryptoKey, message, signature.subarray(8));
  };
  return { name: key.name, keyId, verify };
}

/** Valid UTF-16 that encodes, no control character but newline, a final newline. */
function checkNoteText(text, what) {
  if (!text.endsWith('\n')) refuse('malformed note: ' + what + ' must end with a newline');
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x0a) refuse('malformed note: control character U+' + code.toString(16).padStart(4, '0') + ' at offset ' + i);
  }
  if (!text.isWellFormed()) refuse('malformed note: not valid UTF-8 (lone surrogate)');
}

/** Splits a signed note into its text (final newline kept) and its signature lines; nothing verified yet. */
function parseNote(note) {
  const size = utf8(note).length;
  if (size > MAX_NOTE_BYTES) refuse('note too large: ' + size + ' bytes, the limit is ' + MAX_NOTE_BYTES);
  checkNoteText(note, 'the signed note');
  // The text may hold blank lines; the signatures start after the last one.
  const split = note.lastIndexOf('\n\n');
  if (split < 0) refuse('malformed note: no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1);
  if (lines.length === 0) refuse('malformed note: no signature lines');
  const signatures = [];
  let start = 0;
  for (let number = 1; start <= lines.length; number++) {
    if (number > MAX_SIGNATURES) refuse('malformed note: more than ' + MAX_SIGNATURES + ' signature lines');
    const end = lines.indexOf('\n', start);
    const line = lines.slice(start, end < 0 ? lines.length : end);
    start = end < 0 ? lines.length + 1 : end + 1;
    signatures.push(parseSignatureLine(line, 'signature line ' + number));
  }
  return { text, signatures };
}

function parseSignatureLine(line, where) {
  if (!line.startsWith(SIGNATURE_PREFIX)) refuse('malformed note: ' + where + ' does not start with "' + SIGNATURE_PREFIX + '"');
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space < 0) refuse('malformed note: ' + where + ' has no space between key name and signature');
  const name = rest.slice(0, space);
  const base64 = rest.slice(space + 1);
  if (!isValidKeyName(name)) refuse('malformed note: ' + where + ' has an invalid key name');
  const bytes = decodeBase64(base64);
  if (bytes === undefined) refuse('malformed note: ' + where + ' (' + name + ') is not canonical standard base64');
  if (bytes.length < 5) refuse('malformed note: ' + where + ' (' + name + ') is too short for a key ID and a signature');
  return { name, keyId: readUint32(bytes, 0), signature: bytes.subarray(4), base64 };
}

/** A checkpoint body: origin, tree size, 32-byte root hash, then non-empty extension lines. */
function parseCheckpoint(text) {
  try {
    checkNoteText(text, 'the checkpoint');
  } catch (error) {
    refuse(error.message.replace('malformed note', 'malformed checkpoint'));
  }
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) refuse('malformed checkpoint: ' + lines.length + ' lines, at least 3 are required');
  const [origin, sizeText, rootText, ...extensions] = lines;
  if (origin === '') refuse('malformed checkpoint: empty origin line');
  const size = parseDecimal(sizeText, UINT64_MAX);
  if (size === undefined) refuse('malformed checkpoint: tree size is not a decimal uint64 without leading zeros');
  const rootHash = decodeBase64(rootText);
  if (rootHash === undefined) refuse('malformed checkpoint: root hash is not canonical standard base64');
  if (rootHash.length !== HASH_SIZE) refuse('malformed checkpoint: root hash is ' + rootHash.length + ' bytes, not ' + HASH_SIZE);
  if (extensions.some((line) => line === '')) refuse('malformed checkpoint: empty extension line');
  return { origin, size, rootHash, extensions };
}

/**
 * Opens a signed checkpoint: its origin, then every signature line of a known key (name and key ID both) must verify,
 * once each, and the log's key must be among them; lines of other keys are only reported.
 */
async function openCheckpoint(signedNote, origin, log, witnesses) {
  const { text, signatures } = parseNote(signedNote);
  const checkpoint = parseCheckpoint(text);
  if (checkpoint.origin !== origin) refuse('checkpoint is for origin ' + JSON.stringify(checkpoint.origin) + ', expected ' + JSON.stringify(origin));
  const known = new Map();
  for (const verifier of [log, ...witnesses]) {
    const label = keyLabel(verifier.name, verifier.keyId);
    known.set(label, [...(known.get(label) || []), verifier]);
  }
  const note = { text, bytes: utf8(text) };
  const verified = [];
  const unverified = [];
  const seenUnknown = new Set();
  for (const signature of signatures) {
    const label = keyLabel(signature.name, signature.keyId);
    const candidates = known.get(label);
    if (!candidates) {
      const line = signature.name + ' ' + signature.base64;
      if (!seenUnknown.has(line)) unverified.push(label);
      seenUnknown.add(line);
      continue;
    }
    if (candidates.length > 1) refuse('ambiguous key ' + label + ': more than one known verifier has this name and key ID');
    if (verified.some((s) => keyLabel(s.name, s.keyId) === label)) refuse('duplicate signature for key ' + label);
    if (!(await candidates[0].verify(note, signature.signature))) refuse('invalid signature for key ' + label);
    verified.push(signature);
  }
  if (verified.length === 0) refuse('note has no verifiable signatures (signed only by unknown keys: ' + (unverified.join(', ') || 'none') + ')');
  const logLabel = keyLabel(log.name, log.keyId);
  if (!verified.some((s) => keyLabel(s.name, s.keyId) === logLabel)) refuse('checkpoint for ' + origin + ' is not signed by any known log key');
  const cosignatures = verified
    .filter((s) => keyLabel(s.name, s.keyId) !== logLabel)
    .map((s) => ({ name: s.name, keyId: hex8(s.keyId), timestamp: readUint64(s.signature, 0) }));
  return { checkpoint, cosignatures, unverified };
}
`;
