import { SseRelay } from './sse-relay.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
/** Feeds the stream in `pieces`, returning what was passed on after each, and what finish() held back. */
function relay(pieces: string[]): { passed: string[]; held: string; relay: SseRelay } {
  const r = new SseRelay();
  const passed = pieces.map((piece) => r.push(bytes(piece)).toString('utf8'));
  return { passed, held: r.finish().toString('utf8'), relay: r };
}

describe('SseRelay', () => {
  it('passes whole events on as they complete, and holds back [DONE] and whatever follows it', () => {
    const { passed, held } = relay(['data: {"id":"a"}\n\ndata: {"id"', ':"a","model":"m"}\n', '\ndata: [DONE]\n\n', 'data: late\n\n']);
    expect(passed).toEqual(['data: {"id":"a"}\n\n', '', 'data: {"id":"a","model":"m"}\n\n', '']);
    expect(held).toBe('data: [DONE]\n\ndata: late\n\n');
  });

  it("holds back the Responses API's response.completed, named by event or by type, and reads its usage", () => {
    const completed = JSON.stringify({ type: 'response.completed', response: { id: 'resp_1', model: 'm-1', usage: { input_tokens: 3, output_tokens: 4 } } });
    const { passed, held, relay: r } = relay([`event: response.output_text.delta\ndata: {"type":"response.output_text.delta"}\n\n`, `data: ${completed}\n\n`]);
    expect(passed[1]).toBe('');
    expect(held).toBe(`data: ${completed}\n\n`);
    expect([r.facts.responseId, r.facts.answeredModel, r.facts.usage]).toEqual(['resp_1', 'm-1', { promptTokens: 3, completionTokens: 4, totalTokens: 7 }]);
  });

  it('keeps the bytes exactly, whatever the line ends, and waits for the LF after a CR at a chunk end', () => {
    const { passed, held } = relay(['data: é\r\n\r', '\ndata: 😀\r\r', 'data: x']);
    expect(passed).toEqual(['', 'data: é\r\n\r\n', 'data: 😀\r\r']);
    expect(held).toBe('data: x');
  });

  it('takes usage from the last chunk that has it, and the id from the first', () => {
    const { relay: r } = relay([
      'data: {"id":"c1","model":"m","usage":null}\n\n',
      'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}\n\n',
    ]);
    expect([r.facts.responseId, r.facts.usage]).toEqual(['c1', { promptTokens: 5, completionTokens: 2, totalTokens: 7 }]);
  });

  it('passes a long event on once its blank line comes, however many chunks without a line break it took', () => {
    const text = 'x'.repeat(1000);
    const pieces = ['data: {"id":"a","text":"', ...text.match(/.{1,7}/g)!, '"}\r', '\r', 'data: [DONE]\r\r'];
    const { passed, held } = relay(pieces);
    expect(passed.slice(0, -2).join('')).toBe('');
    expect(passed.at(-2)).toBe('');
    expect(passed.at(-1)).toBe(`data: {"id":"a","text":"${text}"}\r\r`);
    expect(held).toBe('data: [DONE]\r\r');
  });
});
