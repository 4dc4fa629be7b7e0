import { isSafeNumber, LosslessNumber, parse, stringify } from 'lossless-json';

/**
 * Numbers keep their value whatever their size: safe integers and safely representable decimals become JS numbers,
 * larger integers become bigint, and anything else (1e400, 0.1000000000000000000001) stays a LosslessNumber that
 * prints back with the same digits. JSON.parse would round 737185556881998184 to 737185556881998200.
 * A fraction or exponent that happens to have an integral value (1E2, 5.0) also stays a LosslessNumber, so that
 * nothing downstream mistakes it for an integer literal: an ID written as 1E2 is a typo, not order 100.
 */
function parseNumber(text: string): number | bigint | LosslessNumber {
  if (/^-?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  if (!isSafeNumber(text)) return new LosslessNumber(text);
  const n = Number(text);
  return Number.isInteger(n) ? new LosslessNumber(text) : n;
}

/** Objects and arrays may nest this deep; deeper text is refused before parsing (the parser recurses). */
export const MAX_JSON_DEPTH = 64;

/**
 * Parses JSON text without losing precision. Duplicate keys with different values are an error, and so is nesting
 * deeper than `maxDepth`.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (nestingDepth(text) > maxDepth) throw new SyntaxError(`JSON nests deeper than ${maxDepth} levels`);
  return parse(text, null, parseNumber);
}

/** The deepest bracket nesting outside strings; one pass, no allocation. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Serializes to JSON text; bigint and LosslessNumber print as bare numbers with all their digits. */
export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value cannot be represented as JSON');
  return text;
}

export { LosslessNumber };
