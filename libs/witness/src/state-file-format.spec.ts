import { formatState, parseState, WitnessStateError } from './state-file-format.js';

const ROOT = Buffer.alloc(32, 1);
const root = ROOT.toString('base64');

describe('the state file format', () => {
  it('round-trips sizes up to 2^63-1 exactly, as decimal strings, origins sorted', () => {
    const heads = new Map([
      ['b.example/log', { size: 2n ** 63n - 1n, root: ROOT }],
      ['a.example/log', { size: 0n, root: ROOT }],
    ]);
    const text = formatState(heads);
    expect(text).toBe(
      `{\n  "a.example/log": {\n    "size": "0",\n    "root": "${root}"\n  },\n  "b.example/log": {\n    "size": "9223372036854775807",\n    "root": "${root}"\n  }\n}\n`,
    );
    expect(parseState(text, 'state.json')).toEqual(heads);
    expect(parseState('{}', 'state.json')).toEqual(new Map());
  });

  it.each([
    ['', /not valid JSON/],
    ['{"a": {"size": "1", "root": "', /not valid JSON/],
    ['[]', /the top level must be an object of origins/],
    ['null', /the top level must be an object/],
    ['{"": {"size": "1", "root": "R"}}', /an origin is empty/],
    ['{"a": 5}', /origin "a" must be an object/],
    ['{"a": {"size": 5, "root": "R"}}', /origin "a": "size" must be a decimal string/],
    ['{"a": {"size": "05", "root": "R"}}', /without leading zeros/],
    ['{"a": {"size": "9223372036854775808", "root": "R"}}', /at most 2\^63-1/],
    ['{"a": {"size": "1", "root": "AAAA"}}', /origin "a": "root" must be a 32-byte hash/],
    ['{"a": {"size": "1", "root": "R", "extra": 1}}', /origin "a" has unknown fields extra/],
  ])('refuses %j, naming the file and saying why it will not start', (text, detail) => {
    const parse = () => parseState(text.replace('"R"', JSON.stringify(root)), '/data/witness-state.json');
    expect(parse).toThrow(WitnessStateError);
    expect(parse).toThrow(detail);
    expect(parse).toThrow(/^witness state file \/data\/witness-state.json is unusable: .*Refusing to start: an empty state would let a log roll back/);
  });
});
