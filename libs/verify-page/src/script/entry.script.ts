/**
 * Part of the verifier page's script: the entry (the log's canonical JSON) read without losing a digit. Numbers stay
 * the text they were written as; a JS number would round 123456789012345678901234567890. The reading of seq and
 * accountId follows verifyProofFile's (libs/common's parseJson, String(log.seq)), so the verdicts agree.
 */
export const ENTRY_SCRIPT = String.raw`
const MAX_JSON_DEPTH = 64;
const ESCAPED = '"\\/bfnrt';
const UNESCAPED = '"\\/\b\f\n\r\t';

/** JSON as nodes: strings decoded, numbers and literals as written, [a, b) the offsets of each value's text. */
function parseJsonLosslessly(text) {
  let i = 0;
  const bad = () => refuse('not JSON');
  const isDigit = (at) => text.charCodeAt(at) >= 0x30 && text.charCodeAt(at) <= 0x39;
  const skipSpace = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = text.charCodeAt(i)) i++;
  };
  function value(depth) {
    skipSpace();
    const a = i;
    const c = text.charCodeAt(i);
    let node;
    if (c === 0x22) node = { k: 's', v: string() };
    else if (c === 0x7b) node = object(depth + 1);
    else if (c === 0x5b) node = array(depth + 1);
    else if (c === 0x2d || isDigit(i)) node = { k: 'n', text: number() };
    else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (word === undefined) bad();
      i += word.length;
      node = { k: 'l', text: word };
    }
    node.a = a;
    node.b = i;
    skipSpace();
    return node;
  }
  function digits() {
    if (!isDigit(i)) bad();
    while (isDigit(i)) i++;
  }
  function number() {
    const a = i;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else digits();
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      digits();
    }
    if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
      i++;
      if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i++;
      digits();
    }
    return text.slice(a, i);
  }
  function string() {
    let out = '';
    let from = ++i;
    for (;;) {
      if (i >= text.length) bad();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(from, i++);
        return out;
      }
      if (c < 0x20) bad();
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(from, i);
      const simple = i + 1 < text.length ? ESCAPED.indexOf(text[i + 1]) : -1;
      const hex = text.slice(i + 2, i + 6);
      if (simple >= 0) {
        out += UNESCAPED[simple];
        i += 2;
      } else if (text[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(hex)) {
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
      } else bad();
      from = i;
    }
  }
  function object(depth) {
    if (depth > MAX_JSON_DEPTH) bad();
    i++;
    skipSpace();
    const members = new Map();
    if (text.charCodeAt(i) === 0x7d) {
      i++;
      return { k: 'o', members };
    }
    for (;;) {
      skipSpace();
      if (text.charCodeAt(i) !== 0x22) bad();
      const key = string();
      skipSpace();
      if (text.charCodeAt(i++) !== 0x3a) bad();
      const item = value(depth);
      // A key given twice is refused unless both values are the same, and then the last one counts (lossless-json).
      if (members.has(key) && !sameValue(members.get(key), item)) bad();
      members.set(key, item);
      const c = text.charCodeAt(i++);
      if (c === 0x7d) return { k: 'o', members };
      if (c !== 0x2c) bad();
    }
  }
  function array(depth) {
    if (depth > MAX_JSON_DEPTH) bad();
    i++;
    skipSpace();
    const items = [];
    if (text.charCodeAt(i) === 0x5d) {
      i++;
      return { k: 'a', items };
    }
    for (;;) {
      items.push(value(depth));
      const c = text.charCodeAt(i++);
      if (c === 0x5d) return { k: 'a', items };
      if (c !== 0x2c) bad();
    }
  }
  const root = value(0);
  if (i < text.length) bad();
  return root;
}

const isContainer = (node) => node.k === 'o' || node.k === 'a';
const ownKeys = (node) => (node.k === 'o' ? [...node.members.keys()] : node.items.map((_, j) => String(j)));
const ownMember = (node, key) => (node.k === 'o' ? node.members.get(key) : /^(?:0|[1-9][0-9]*)$/.test(key) ? node.items[Number(key)] : undefined);

/** lossless-json's isDeepEqual on nodes: numbers by their text, containers by the union of their own keys. */
function sameValue(a, b) {
  if (!isContainer(a) || !isContainer(b)) return a.k === b.k && (a.k === 's' ? a.v === b.v : a.text === b.text);
  if (a.k === 'a' && b.k === 'a') return a.items.length === b.items.length && a.items.every((item, j) => sameValue(item, b.items[j]));
  for (const key of new Set([...ownKeys(a), ...ownKeys(b)])) {
    const x = ownMember(a, key);
    const y = ownMember(b, key);
    if (x === undefined || y === undefined ? x !== y : !sameValue(x, y)) return false;
  }
  return true;
}

/** What String(value) gives for the value the reference parsed: the check of seq compares that text. */
function jsString(node) {
  if (node === undefined) return 'undefined';
  if (node.k === 's') return node.v;
  if (node.k === 'o') return '[object Object]';
  if (node.k === 'a') return node.items.map((item) => (item.k === 'l' && item.text === 'null' ? '' : jsString(item))).join(',');
  return node.text;
}

/**
 * The entry must be the log at that index of that account: its seq is index + 1 and its accountId the origin's last
 * path segment. Answers its top-level fields, each value as written (strings decoded).
 */
function readEntry(entry, index, origin) {
  let root;
  try {
    root = parseJsonLosslessly(entry);
  } catch (error) {
    if (error instanceof Refusal) refuse('the entry is not the JSON of a log');
    throw error;
  }
  if (!isContainer(root)) refuse('the entry is not the JSON of a log');
  const member = (key) => (root.k === 'o' ? root.members.get(key) : undefined);
  const seq = jsString(member('seq'));
  if (seq !== String(index + 1n)) refuse('the entry is the log at seq ' + seq + ', but the proof puts it at index ' + index);
  const account = member('accountId');
  if (account === undefined || account.k !== 's' || !origin.endsWith('/' + account.v)) {
    const shown = account === undefined ? 'undefined' : account.k === 's' ? JSON.stringify(account.v) : entry.slice(account.a, account.b);
    refuse('the entry is a log of account ' + shown + ', not of the origin ' + JSON.stringify(origin));
  }
  return root.k === 'o' ? [...root.members].map(([key, node]) => ({ key, value: node.k === 's' ? node.v : entry.slice(node.a, node.b) })) : [];
}

/** JSON text laid out with indents, token by token: every string and number keeps its exact characters. */
function layOut(text) {
  const out = [];
  let depth = 0;
  let i = 0;
  const newline = () => '\n' + '  '.repeat(Math.max(depth, 0));
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out.push(text.slice(i, end + 1));
      i = end + 1;
    } else if (c === '{' || c === '[') {
      let next = i + 1;
      while (' \t\n\r'.includes(text[next]) && next < text.length) next++;
      if (text[next] === (c === '{' ? '}' : ']')) {
        out.push(c + text[next]);
        i = next + 1;
      } else {
        depth++;
        out.push(c + newline());
        i++;
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out.push(newline() + c);
      i++;
    } else if (c === ',') {
      out.push(',' + newline());
      i++;
    } else if (c === ':') {
      out.push(': ');
      i++;
    } else if (' \t\n\r'.includes(c)) {
      i++;
    } else {
      let end = i;
      while (end < text.length && !'{}[],:" \t\n\r'.includes(text[end])) end++;
      out.push(text.slice(i, end));
      i = end;
    }
  }
  return out.join('');
}
`;
