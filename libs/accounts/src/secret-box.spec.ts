import { randomBytes } from 'node:crypto';
import { open, seal, secretsKeyFrom } from './secret-box.js';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and never shows the plaintext in the sealed text', () => {
    const sealed = seal(key, '{"secret":"s3cr3t-value"}', 'acct-1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('s3cr3t');
    expect(open(key, sealed, 'acct-1')).toBe('{"secret":"s3cr3t-value"}');
    expect(seal(key, 'same', 'a')).not.toBe(seal(key, 'same', 'a'));
  });

  it('refuses another key, another account, or a changed byte', () => {
    const sealed = seal(key, 'secret', 'acct-1');
    expect(() => open(randomBytes(32), sealed, 'acct-1')).toThrow();
    expect(() => open(key, sealed, 'acct-2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from(Buffer.from(parts[3], 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url');
    expect(() => open(key, parts.join('.'), 'acct-1')).toThrow();
  });

  it('reads the key as hex or base64', () => {
    const bytes = randomBytes(32);
    expect(secretsKeyFrom(bytes.toString('hex'))).toEqual(bytes);
    expect(secretsKeyFrom(bytes.toString('base64'))).toEqual(bytes);
  });
});
