import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519Cosigner, generateKey } from '#libs/signed-note';
import { readWitnessConfig, SANDBOX_KEY_FILE, WitnessConfigError } from './witness-config.js';

const LOG = generateKey('weex-ai-log-gateway.local');
const KEY = generateKey('witness.example/w1').signerKey;
const LOGS = `weex-ai-log-gateway.local/* ${LOG.verifierKey}`;

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    readWitnessConfig(env);
  } catch (error) {
    if (error instanceof WitnessConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('readWitnessConfig', () => {
  it('reads the key and the logs, with defaults for the rest', () => {
    expect(readWitnessConfig({ WITNESS_KEY: KEY, WITNESS_LOGS: LOGS })).toEqual({
      key: KEY,
      logs: [{ origin: 'weex-ai-log-gateway.local/*', vkey: LOG.verifierKey }],
      stateFile: join('.data', 'witness-state.json'),
      host: '127.0.0.1',
      port: 3300,
      logLevel: 'log',
    });
    const config = readWitnessConfig({ WITNESS_KEY: KEY, WITNESS_LOGS: LOGS, DATA_DIR: '/d', WITNESS_PORT: '0', WITNESS_HOST: '0.0.0.0' });
    expect(config).toMatchObject({ stateFile: '/d/witness-state.json', port: 0, host: '0.0.0.0' });
  });

  it('lists every problem at once, naming the variable, and never the key', () => {
    expect(problems({})).toEqual([
      expect.stringMatching(/^WITNESS_KEY is required: .*npm run witness:keygen -- <name>.*WITNESS_SANDBOX=true$/),
      expect.stringMatching(/^WITNESS_LOGS is required: the logs this witness cosigns for/),
    ]);
    const bad = problems({
      WITNESS_KEY: `${KEY}x`,
      WITNESS_LOGS: `a ${LOG.verifierKey}; b nonsense`,
      WITNESS_PORT: '65536',
      WITNESS_SANDBOX: 'yes',
      WITNESS_HOST: '',
    });
    expect(bad).toEqual([
      'WITNESS_SANDBOX must be "true" or "false", got "yes"',
      'WITNESS_KEY: signer key: key material is not canonical standard base64',
      expect.stringMatching(/^WITNESS_LOGS entry 2 \("b"\): verifier key: expected <name>/),
      'WITNESS_PORT must be a TCP port from 0 to 65535, got "65536"',
      'WITNESS_HOST must be a host name or address to listen on, got ""',
    ]);
    // PRIVATE+KEY+<name>+<id>+<base64>: the base64 itself may hold '+', so cut after the fourth.
    const material = KEY.split('+').slice(4).join('+');
    expect(material.length).toBeGreaterThan(40);
    expect(bad.join('\n')).not.toContain(material);
  });

  it('in sandbox mode makes a key once, in DATA_DIR with mode 0600, and uses it from then on', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'witness-config-'));
    const first = readWitnessConfig({ WITNESS_SANDBOX: 'true', WITNESS_LOGS: LOGS, DATA_DIR: dataDir });
    expect(first.key).toMatch(/^PRIVATE\+KEY\+sandbox-witness\.local\+[0-9a-f]{8}\+/);
    expect(ed25519Cosigner(first.key).name).toBe('sandbox-witness.local');
    const file = join(dataDir, SANDBOX_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.key);
    expect(readWitnessConfig({ WITNESS_SANDBOX: 'true', WITNESS_LOGS: LOGS, DATA_DIR: dataDir }).key).toBe(first.key);
    // A configured key wins over the sandbox's.
    expect(readWitnessConfig({ WITNESS_SANDBOX: 'true', WITNESS_KEY: KEY, WITNESS_LOGS: LOGS, DATA_DIR: dataDir }).key).toBe(KEY);
  });
});
