import { createHash } from 'node:crypto';
import { EMPTY_ROOT, leafHash, nodeHash } from './hashing.js';

describe('RFC 9162 hashing', () => {
  it('hashes the empty tree as SHA-256 of nothing, a leaf with 0x00 and a node with 0x01 before its input', () => {
    const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
    const [left, right] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    expect(EMPTY_ROOT.equals(sha256())).toBe(true);
    expect(leafHash(Buffer.from('entry')).equals(sha256(Buffer.from([0]), Buffer.from('entry')))).toBe(true);
    expect(nodeHash(left, right).equals(sha256(Buffer.from([1]), left, right))).toBe(true);
  });

  it('keeps leaves and nodes apart and depends on order', () => {
    const [a, b] = [leafHash(Buffer.from('Hello')), leafHash(Buffer.from('World'))];
    expect(nodeHash(a, b).equals(leafHash(Buffer.concat([a, b])))).toBe(false);
    expect(nodeHash(a, b).equals(nodeHash(b, a))).toBe(false);
  });
});
