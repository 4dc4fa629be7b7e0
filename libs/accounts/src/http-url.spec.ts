import { httpBaseUrlProblem } from './http-url.js';

describe('httpBaseUrlProblem', () => {
  it.each([
    ['https://api.openai.com/v1', undefined],
    ['http://127.0.0.1:11434/v1/', undefined],
    ['http://[::1]:8000', undefined],
    ['', 'must be an http(s) URL, such as https://api.openai.com/v1'],
    [42, 'must be an http(s) URL, such as https://api.openai.com/v1'],
    ['not a url', 'must be an http(s) URL, such as https://api.openai.com/v1: this one cannot be read as a URL'],
    ['http://127.0.0.1:99999/v1', 'has port 99999: a port is 1 to 65535'],
    ['http://127.0.0.1:0', 'has port 0: a port is 1 to 65535'],
    ['ftp://files.example/v1', 'must start with http:// or https://, not ftp:'],
    ['https://user:pw@api.example/v1', 'must hold no user:password (the key goes in apiKey)'],
    ['https://api.example/v1?x=1', 'must have no query or fragment: the call’s path is appended to it'],
    ['https://api.example/v1#', 'must have no query or fragment: the call’s path is appended to it'],
  ])('%p: %p', (value, problem) => {
    expect(httpBaseUrlProblem(value, 'apiKey')).toBe(problem);
  });
});
