import { AnswerFacts } from './answer-facts.js';

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);
const utf8 = new TextDecoder('utf-8');

/** The events after which a stream says no more: chat's `data: [DONE]`, the Responses API's last events, an error. */
const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

/**
 * Passes a server-sent event stream on event by event, as its bytes came, and holds back its end: the terminal event
 * (`data: [DONE]`, `response.completed`, ...) and whatever follows it wait in `finish()` until the call is recorded, so
 * that a client never sees a stream end that was not recorded. An event is passed on once its blank line has come (a
 * client acts on nothing before). Reads each event's JSON data into `facts` on the way.
 */
export class SseRelay {
  readonly facts = new AnswerFacts();
  /** The unfinished event's chunks. */
  private pending: Buffer[] = [];
  private readonly held: Buffer[] = [];
  private holding = false;

  /** Takes a chunk from the provider; returns the bytes to pass on now (possibly none). */
  push(chunk: Buffer): Buffer {
    if (this.holding) {
      this.held.push(chunk);
      return EMPTY;
    }
    // An event ends at a line break: a long event's chunks without one wait uncopied and unscanned (a Responses API
    // stream's last events hold the whole answer; joining each chunk to the rest was quadratic).
    if (this.pending.length > 0 && !chunk.includes(LF) && !chunk.includes(CR) && this.pending.at(-1)!.at(-1) !== CR) {
      this.pending.push(chunk);
      return EMPTY;
    }
    const bytes = this.pending.length > 0 ? Buffer.concat([...this.pending, chunk]) : chunk;
    let start = 0;
    let passed = 0;
    for (let end = eventEnd(bytes, 0); end !== -1; end = eventEnd(bytes, start)) {
      if (this.read(bytes.subarray(start, end))) {
        this.holding = true;
        this.held.push(bytes.subarray(start));
        this.pending = [];
        return bytes.subarray(0, passed);
      }
      start = passed = end;
    }
    this.pending = start < bytes.length ? [bytes.subarray(start)] : [];
    return bytes.subarray(0, passed);
  }

  /** What was held back: the terminal event and what followed it, or an unfinished last event. */
  finish(): Buffer {
    const rest = Buffer.concat([...this.held, ...this.pending]);
    if (!this.holding && rest.length > 0) this.read(rest);
    return rest;
  }

  /** Reads one event; true when it ends the stream. */
  private read(event: Buffer): boolean {
    let name = '';
    const data: string[] = [];
    for (const line of utf8.decode(event).split(/\r\n|\r|\n/)) {
      if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      else if (line.startsWith('event:')) name = line.slice(6).trim();
    }
    const text = data.join('\n');
    if (text === '[DONE]') return true;
    let type: unknown;
    if (text !== '') {
      try {
        const value = JSON.parse(text) as { type?: unknown };
        this.facts.read(value);
        type = value?.type;
      } catch {
        // An event whose data is not JSON is passed on as it is, and says nothing.
      }
    }
    return TERMINAL.has(name) || (typeof type === 'string' && TERMINAL.has(type));
  }
}

/**
 * The index just past the blank line that ends the first event at or after `from`, or -1 while none has come. Lines
 * end with LF, CRLF or CR; a CR at the very end waits for the next chunk, which may bring its LF.
 */
export function eventEnd(bytes: Buffer, from: number): number {
  let lineStart = from;
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== LF && byte !== CR) continue;
    let next = i + 1;
    if (byte === CR) {
      if (next === bytes.length) return -1;
      if (bytes[next] === LF) next++;
    }
    if (i === lineStart) return next;
    lineStart = next;
    i = next - 1;
  }
  return -1;
}
