import { LosslessNumber, parse, stringify } from 'lossless-json';

/**
 * Numbers keep the text they were written with: a JS number only where it prints back as exactly that text (the
 * safe integers but -0, and decimals such as 0.5 or 1e-7), larger integers as bigint, and anything else (1e400, -0,
 * -0.0, 1.50, 1E2, 0.1000000000000000000001) as a LosslessNumber that prints back with the same characters.
 * JSON.parse would round 737185556881998184 to 737185556881998200, and write -0 as 0 and 1.50 as 1.5. A fraction or
 * exponent stays a LosslessNumber even where its value is integral (1E2, 5.0), so that nothing downstream mistakes it
 * for an integer literal: an ID written as 1E2 is a typo, not order 100.
 */
function parseNumber(text: string): number | bigint | LosslessNumber {
  // An integer longer than any 64-bit one is no ID: kept as its text, since BigInt reads a long one in quadratic time
  // (a 1,000,000-digit number held the event loop for 1.8 s).
  if (text.length > BIGINT_DIGITS) return new LosslessNumber(text);
  const n = Number(text);
  if (/^-?\d+$/.test(text)) return !Number.isSafeInteger(n) ? BigInt(text) : Object.is(n, -0) ? new LosslessNumber(text) : n;
  return String(n) === text ? n : new LosslessNumber(text);
}

/** The longest integer read as a bigint: twice the digits of the largest 64-bit one, sign included. */
const BIGINT_DIGITS = 41;

/** Objects and arrays may nest this deep; deeper text is refused before parsing (the parser recurses). */
export const MAX_JSON_DEPTH = 64;

/**
 * Parses JSON text without losing precision. Duplicate keys with different values are an error, and so is nesting
 * deeper than `maxDepth`.
 *
 * Fast path: one scan finds the nesting depth, counts the keys and picks out the number tokens that JSON.parse would
 * not read as parseNumber does (64-bit IDs, exponents, long decimals). Those are swapped for marker strings, the
 * native JSON.parse reads the rest, and the markers are swapped back for parseNumber's values. Whenever the fast path
 * cannot vouch for its result (duplicate keys, a U+0000 that a marker could be confused with, a parse error, a marker
 * where a key was) the text goes to lossless-json's parser, which gives the answer and the error messages.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH, maxValues = Infinity): unknown {
  const scan = scanJson(text);
  if (scan.depth > maxDepth) throw new JsonLimitError('depth', `JSON nests deeper than ${maxDepth} levels`);
  if (scan.values > maxValues) throw new JsonLimitError('values', `JSON holds more than ${maxValues} values`);
  return (scan.fast ? parseNative(text, scan) : undefined) ?? parseJsonSlowly(text);
}

/** parseJson's fast path alone: its value, or undefined where it cannot vouch for one (no depth limit). */
export function parseJsonFast(text: string): unknown {
  const scan = scanJson(text);
  return scan.fast ? parseNative(text, scan) : undefined;
}

/** lossless-json's parser with parseNumber: what parseJson answers, the reference its fast path is tested against. */
export function parseJsonSlowly(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** Text refused before parsing for its shape: nesting deeper, or more values, than the caller allows. */
export class JsonLimitError extends SyntaxError {
  constructor(
    readonly limit: 'depth' | 'values',
    message: string,
  ) {
    super(message);
  }
}

interface Scan {
  depth: number;
  /** Objects, arrays and the members after their first (one per comma): a bound on what parsing builds. */
  values: number;
  /** Members of all objects: one per colon outside strings. */
  keys: number;
  /** [start, end) of the number tokens that need parseNumber. */
  special: number[];
  fast: boolean;
}

/**
 * Numbers JSON.parse reads exactly as parseNumber does, into a JS number that prints back as the same text: at most
 * 15 digits, any fraction ending in a non-zero digit, not -0, and not below 1e-6 (which JS prints with an exponent).
 */
const PLAIN_NUMBER = /^(?!-0$|-?0\.0{6})-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;
const NUMBER_GRAMMAR = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** U+0000, which the text must not hold; written escaped into the text JSON.parse reads. */
const MARKER = '\u0000';
const SLOW = Symbol('slow');

/** One pass, outside strings: bracket depth, values, colons, and number tokens that are not plain. */
function scanJson(text: string): Scan {
  // Parsed text with U+0000 could hold a string that looks like a marker.
  const scan: Scan = { depth: 0, values: 0, keys: 0, special: [], fast: !text.includes(MARKER) && !text.includes('\\u0000') };
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x7b || c === 0x5b) {
      scan.depth = Math.max(scan.depth, ++depth);
      scan.values++;
    } else if (c === 0x2c) scan.values++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a) scan.keys++;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      const token = text.slice(i, end);
      if (end - i > 16 || !PLAIN_NUMBER.test(token) || digits(token) > 15) {
        if (!NUMBER_GRAMMAR.test(token)) scan.fast = false;
        scan.special.push(i, end);
      }
      i = end - 1;
    }
  }
  return scan;
}

/** The index of the quote that closes the string opened at `start` (text.length if none). */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x2b || c === 0x65 || c === 0x45;
}

function digits(token: string): number {
  return token.length - (token.charCodeAt(0) === 0x2d ? 1 : 0) - (token.includes('.') ? 1 : 0);
}

/** The value, or undefined when the fast path cannot vouch for it. */
function parseNative(text: string, scan: Scan): unknown {
  const { special } = scan;
  let marked = text;
  if (special.length > 0) {
    marked = text.slice(0, special[0]);
    for (let k = 0; k < special.length; k += 2) {
      marked += `"\\u0000${k}"${text.slice(special[k + 1], special[k + 2] ?? text.length)}`;
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(marked);
  } catch {
    return undefined;
  }
  const state = { keys: 0, restored: 0 };
  const result = restore(value, text, special, state);
  return result === SLOW || state.keys !== scan.keys || state.restored !== special.length / 2 ? undefined : result;
}

/** Swaps markers back for parseNumber's values and counts object members; SLOW if a key holds a marker. */
function restore(value: unknown, text: string, special: number[], state: { keys: number; restored: number }): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 0) return value;
    const k = Number(value.slice(1));
    state.restored++;
    return parseNumber(text.slice(special[k], special[k + 1]));
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = restore(value[i], text, special, state);
      if (item === SLOW) return SLOW;
      value[i] = item;
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    // A marker as a key was a number where a key belongs; assigning to __proto__ would set the prototype.
    if (key.charCodeAt(0) === 0 || key === '__proto__') return SLOW;
    state.keys++;
    const child = record[key];
    const item = restore(child, text, special, state);
    if (item === SLOW) return SLOW;
    if (item !== child) record[key] = item;
  }
  return record;
}

// JSON.stringify would write a LosslessNumber as an object ({"value":"1e400"}) without a word. With this toJSON it
// writes a string that begins with U+0000 (escaped as \u0000 in the text), which stringifyJson looks for; a bigint
// makes JSON.stringify throw. Either way stringifyJson falls back to lossless-json for that value.
Object.defineProperty(LosslessNumber.prototype, 'toJSON', {
  value(this: LosslessNumber): string {
    return `\u0000${this.value}`;
  },
});

/**
 * Serializes to JSON text; bigint and LosslessNumber print as bare numbers with all their digits. Values without
 * either (most logs and answers) are written by the native JSON.stringify, which gives the same text, faster.
 */
export function stringifyJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  // A string with U+0000 of the value's own also sends it the long way, which is merely slower.
  if (text === undefined || text.includes('\\u0000')) text = stringify(value);
  if (text === undefined) throw new TypeError('value cannot be represented as JSON');
  return text;
}

export { LosslessNumber };
