import type { ComponentChildren } from 'preact';

/**
 * Characters that are invisible or reorder the text around them: controls (Cc) but tab and line breaks, and format
 * characters (Cf): bidi marks, embeddings, overrides and isolates, zero-width characters, the soft hyphen, and tag
 * characters, which can smuggle text past a reader. ZWNJ and ZWJ stay: several scripts and emoji need them.
 */
const HIDDEN = /(?![\t\n\r\u200C\u200D])[\p{Cc}\p{Cf}]/gu;
const NAMES: Record<string, string> = {
  '061C': 'ARABIC LETTER MARK',
  '200B': 'ZERO WIDTH SPACE',
  '200E': 'LEFT-TO-RIGHT MARK',
  '200F': 'RIGHT-TO-LEFT MARK',
  '202A': 'LEFT-TO-RIGHT EMBEDDING',
  '202B': 'RIGHT-TO-LEFT EMBEDDING',
  '202C': 'POP DIRECTIONAL FORMATTING',
  '202D': 'LEFT-TO-RIGHT OVERRIDE',
  '202E': 'RIGHT-TO-LEFT OVERRIDE',
  '2066': 'LEFT-TO-RIGHT ISOLATE',
  '2067': 'RIGHT-TO-LEFT ISOLATE',
  '2068': 'FIRST STRONG ISOLATE',
  '2069': 'POP DIRECTIONAL ISOLATE',
  FEFF: 'ZERO WIDTH NO-BREAK SPACE',
};

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** `text` with each hidden character as the mark ⟨U+202E⟩: for places that take no elements (an <option>). */
export const markHidden = (text: string): string => text.replace(HIDDEN, (char) => `⟨${codePoint(char)}⟩`);

/** `text` as nodes: hidden characters become marks that name them; the text itself is not changed otherwise. */
export function visible(text: string): ComponentChildren {
  // search() and matchAll() ignore the /g regex's lastIndex (test() would leave it past the first match).
  if (text.search(HIDDEN) < 0) return text;
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const match of text.matchAll(HIDDEN)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    const point = codePoint(match[0]);
    const name = NAMES[point.slice(2)];
    parts.push(
      <span class="control" title={`${point}${name ? ` ${name}` : ''}: an invisible character, shown here instead of applied`}>
        ⟨{point}⟩
      </span>,
    );
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/**
 * A string a log (or an agent, a team or the exchange) supplied: isolated in a <bdi>, so that right-to-left text
 * cannot reorder the fields beside it, with its hidden characters shown.
 */
export function LogText({ text, class: className }: { text: string; class?: string }) {
  return <bdi class={className}>{visible(text)}</bdi>;
}
