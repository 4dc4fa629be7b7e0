import { answerText, decisionFromCalls, fit, spanAnswerText } from './model-call-decision.js';
import type { StoredModelCallWithBodies } from './model-calls.repository.js';

describe('answerText: the text of an answer, whole or streamed', () => {
  it('reads a chat completion, a Responses answer, and both streamed', () => {
    expect(answerText('{"choices":[{"message":{"role":"assistant","content":"BUY"}}]}')).toBe('BUY');
    expect(answerText('{"output":[{"type":"message","content":[{"type":"output_text","text":"SE"},{"type":"output_text","text":"LL"}]}]}')).toBe('SELL');
    const chat = [
      'data: {"choices":[{"delta":{"role":"assistant"}}]}',
      'data: {"choices":[{"delta":{"content":"HO"}}]}',
      'data: {"choices":[{"delta":{"content":"LD"}}]}',
      'data: [DONE]',
    ];
    expect(answerText(`${chat.join('\n\n')}\n\n`)).toBe('HOLD');
    const responses = [
      'event: response.output_text.delta',
      'data: {"type":"response.output_text.delta","delta":"Lo"}',
      '',
      'data: {"type":"response.output_text.delta","delta":"ng"}',
    ];
    expect(answerText(responses.join('\r\n'))).toBe('Long');
  });

  it('finds nothing in what holds no text, and never throws', () => {
    for (const body of ['', '{', '{"choices":null}', '{"output":[null,1,{"content":"x"}]}', 'data: {nope', '<html>502</html>']) {
      expect(answerText(body)).toBeUndefined();
    }
  });
});

describe("spanAnswerText: the text of a span's answer, in each convention's shape", () => {
  it('reads GenAI output messages, the older completions, OpenInference, a provider answer and plain text', () => {
    const genAi = '[{"role":"assistant","parts":[{"type":"text","content":"BUY "},{"type":"tool_call","name":"x"},{"type":"text","content":"0.01"}]}]';
    expect(spanAnswerText(genAi)).toBe('BUY 0.01');
    expect(spanAnswerText('[{"role":"assistant","content":"SELL"}]')).toBe('SELL');
    expect(spanAnswerText('[{"message.role":"assistant","message.content":"HOLD"}]')).toBe('HOLD');
    expect(spanAnswerText('{"choices":[{"message":{"role":"assistant","content":"LONG"}}]}')).toBe('LONG');
    expect(spanAnswerText('{"output_text":"SHORT"}')).toBe('SHORT');
    expect(spanAnswerText('"quoted"')).toBe('quoted');
    expect(spanAnswerText('Go long: funding is negative.')).toBe('Go long: funding is negative.');
    expect(spanAnswerText('42')).toBe('42');
  });

  it('finds nothing in an empty answer or messages without text, and never throws', () => {
    for (const body of ['', '  ', '[]', '[{"role":"assistant","parts":[{"type":"tool_call"}]}]', '[null,1]', '{"choices":null}']) {
      expect(spanAnswerText(body)).toBeUndefined();
    }
  });
});

describe('fit: at most n UTF-16 units', () => {
  it('keeps a short text, cuts a long one with an ellipsis, never between the halves of an emoji', () => {
    expect(fit('abc', 3)).toBe('abc');
    expect(fit('abcd', 3)).toBe('ab…');
    expect(fit('a😀bc', 3)).toBe('a…');
    expect(fit('x'.repeat(2000), 1000)).toHaveLength(1000);
  });
});

describe('decisionFromCalls: only calls that asked a model back a decision', () => {
  // A proxied GET the provider answered with a completion (OpenAI's GET /chat/completions/{id} returns a stored one).
  const fetched = {
    id: '0195f0c2-6a10-7b2e-8c41-1d6e7f8a9b00',
    source: 'proxy',
    method: 'GET',
    path: '/chat/completions/chatcmpl-old',
    outcome: 'answered',
    httpStatus: 200,
    requestedModel: null,
    answeredModel: 'gpt-4o-mini',
    requestBody: '',
    responseBody: '{"model":"gpt-4o-mini","choices":[{"message":{"role":"assistant","content":"BUY"}}]}',
    responseEncoding: 'utf8',
  } as unknown as StoredModelCallWithBodies;

  it('refuses a call that sent no model, whatever its answer holds, naming it', () => {
    expect(decisionFromCalls([fetched], 1000)).toEqual({
      index: 0,
      error: `model call ${fetched.id} asked no model (GET /chat/completions/chatcmpl-old): name the calls that answered the decision`,
    });
  });
});
