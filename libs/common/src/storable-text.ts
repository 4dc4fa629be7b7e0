/**
 * Strings PostgreSQL cannot store, which JavaScript strings (and JSON escapes) can hold: U+0000, which its text types
 * refuse, and a lone UTF-16 surrogate (`\ud800` without its pair), which is not Unicode and which its JSON functions
 * refuse. Either one in a statement fails the whole statement, and with it every request sharing its transaction.
 */

/** A string or key PostgreSQL cannot store, by its dotted path, and the rule it breaks (the path in the message). */
export interface UnstorableText {
  path: string;
  message: string;
}

/** Whether PostgreSQL can store the string: well-formed UTF-16 (no lone surrogate) without U+0000. */
export function isStorableText(text: string): boolean {
  // Both native: measured faster than a regular expression that looks for either first.
  return text.isWellFormed() && !text.includes('\u0000');
}

/**
 * Whether JSON text can hold such a string. Strictly decoded UTF-8 cannot encode a surrogate, so one arrives only
 * escaped, as can U+0000; false proves that every string and key the text parses to is storable. Two substring
 * searches: far cheaper than a walk of the parsed value.
 */
export function jsonMayHoldUnstorableText(text: string): boolean {
  return text.includes('\\u') || text.includes('\u0000');
}

/**
 * The first string or object key of a parsed JSON value that PostgreSQL cannot store, named by its path below `path`
 * (`input.a.b.2`; for a key, the object that holds it), or undefined when every one is storable.
 */
export function findUnstorableText(value: unknown, path: string): UnstorableText | undefined {
  const found = firstUnstorable(value);
  if (!found) return undefined;
  const at = (path === '' ? found.below : [path, ...found.below]).join('.');
  return found.isKey
    ? // The key itself is the problem: named escaped, as JSON writes it, since its text cannot be printed as it is.
      { path: at, message: `${at || 'body'} has a key PostgreSQL cannot store, ${JSON.stringify(found.text)}: it ${flaw(found.text)}` }
    : { path: at, message: `${at || 'body'} must be text PostgreSQL can store: it ${flaw(found.text)}` };
}

/** Whether every string and object key of a parsed JSON value is storable. Allocates nothing while it is. */
export function holdsOnlyStorableText(value: unknown): boolean {
  return firstUnstorable(value) === undefined;
}

interface Found {
  /** The keys and indexes from the value down to the string, or to the object holding the key. */
  below: Array<string | number>;
  /** The unstorable string or key. */
  text: string;
  isKey: boolean;
}

/** The walk behind both: the path is built only on the way back up from what it found. */
function firstUnstorable(value: unknown): Found | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : { below: [], text: value, isKey: false };
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstUnstorable(value[i]);
      if (found) return (found.below.unshift(i), found);
    }
    return undefined;
  }
  for (const key in value) {
    if (!isStorableText(key)) return { below: [], text: key, isKey: true };
    const found = firstUnstorable((value as Record<string, unknown>)[key]);
    if (found) return (found.below.unshift(key), found);
  }
  return undefined;
}

/** What makes an unstorable string so. */
function flaw(text: string): string {
  if (text.includes('\u0000')) return 'contains the character U+0000';
  return `contains a lone UTF-16 surrogate (\\u${text.charCodeAt(loneSurrogateAt(text)).toString(16)}), which is not Unicode`;
}

/** The index of the first surrogate without its pair (-1 if none). */
function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (isHigh(unit) && isLow(text.charCodeAt(i + 1))) i++;
    else if (isHigh(unit) || isLow(unit)) return i;
  }
  return -1;
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
