import { ed25519Cosigner, generateKey } from '#libs/signed-note';
import { KnownLogs, KnownLogsError, parseKnownLogs } from './known-logs.js';

const gateway = generateKey('weex-ai-log-gateway.local');
const other = generateKey('other.example/log');

describe('parseKnownLogs', () => {
  it('reads entries separated by new lines or ";", skipping blank ones', () => {
    const text = `\n weex-ai-log-gateway.local/* ${gateway.verifierKey} ;other.example/log\t${other.verifierKey}\n;\n`;
    expect(parseKnownLogs(text)).toEqual([
      { origin: 'weex-ai-log-gateway.local/*', vkey: gateway.verifierKey },
      { origin: 'other.example/log', vkey: other.verifierKey },
    ]);
    expect(parseKnownLogs('')).toEqual([]);
  });

  it('names the entry that is not "<origin> <vkey>"', () => {
    expect(() => parseKnownLogs(`a ${gateway.verifierKey}; b`)).toThrow(
      new KnownLogsError('WITNESS_LOGS entry 2: expected "<origin> <verifier key>", got 1 word(s)'),
    );
    expect(() => parseKnownLogs(`a b c`, 'LOGS')).toThrow('LOGS entry 1: expected "<origin> <verifier key>", got 3 word(s)');
  });
});

describe('KnownLogs', () => {
  const logs = new KnownLogs([
    { origin: 'weex-ai-log-gateway.local/*', vkey: gateway.verifierKey },
    { origin: 'other.example/log', vkey: other.verifierKey },
  ]);
  const names = (origin: string) => logs.verifiersFor(origin).map((v) => v.name);

  it('trusts the key of an exact origin for that origin only', () => {
    expect(names('other.example/log')).toEqual(['other.example/log']);
    expect(names('other.example/log2')).toEqual([]);
    expect(names('other.example')).toEqual([]);
  });

  it('matches a "/*" pattern to one account id after the prefix, and nothing that only looks like one', () => {
    expect(names('weex-ai-log-gateway.local/default')).toEqual(['weex-ai-log-gateway.local']);
    expect(names('weex-ai-log-gateway.local/acct-42')).toEqual(['weex-ai-log-gateway.local']);
    const lookAlikes = ['d\u0435fault', 'DEFAULT', 'default ', ' default', 'default\u202e', '-default', 'a'.repeat(65), 'déf'];
    for (const origin of [
      'weex-ai-log-gateway.local/',
      'weex-ai-log-gateway.local',
      'weex-ai-log-gateway.local/a/b',
      'weex-ai-log-gateway.localx/a',
      ...lookAlikes.map((segment) => `weex-ai-log-gateway.local/${segment}`),
    ]) {
      expect({ origin, names: names(origin) }).toEqual({ origin, names: [] });
    }
  });

  it('gives one verifier per key when several entries cover an origin', () => {
    const twice = new KnownLogs([
      { origin: 'a.example/*', vkey: gateway.verifierKey },
      { origin: 'a.example/x', vkey: gateway.verifierKey },
      { origin: 'a.example/x', vkey: other.verifierKey },
    ]);
    expect(twice.verifiersFor('a.example/x').map((v) => v.name)).toEqual(['weex-ai-log-gateway.local', 'other.example/log']);
  });

  it('refuses a cosignature (0x04) key, a bad key, an empty origin, a bare "/*" and one label for two keys, naming the entry', () => {
    const cosigner = ed25519Cosigner(generateKey('w.example').signerKey);
    expect(() => new KnownLogs([{ origin: 'a', vkey: cosigner.verifierKey }])).toThrow(/entry 1 \("a"\): .*not a plain Ed25519 \(0x01\) key/);
    expect(() => new KnownLogs([{ origin: 'a', vkey: 'nonsense' }])).toThrow(/entry 1 \("a"\): verifier key: expected <name>\+<hex key ID>\+<base64 key>/);
    expect(() => new KnownLogs([{ origin: '', vkey: gateway.verifierKey }])).toThrow(/entry 1 \(""\): the origin must be non-empty/);
    expect(() => new KnownLogs([{ origin: '/*', vkey: gateway.verifierKey }])).toThrow(/a pattern needs a prefix/);
    // Same name, same key ID, different key: a forged vkey would do this; keys IDs are only 32 bits.
    const [name, id] = gateway.verifierKey.split('+');
    const clash = `${name}+${id}+${other.verifierKey.split('+').slice(2).join('+')}`;
    expect(
      () =>
        new KnownLogs([
          { origin: 'a', vkey: gateway.verifierKey },
          { origin: 'b', vkey: clash },
        ]),
    ).toThrow(KnownLogsError);
  });
});
