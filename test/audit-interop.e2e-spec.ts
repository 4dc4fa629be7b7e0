import { createHash, generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { gatewaySuite } from './support/gateway-suite.js';

// Sigstore's verifier (the code cosign and npm run against Rekor's checkpoints) reads our checkpoints and inclusion
// proofs: its RFC 6962 inclusion check and its signed-note parser and signature check, none of it written here.
// Its tlog modules are not in the package's index, so they are required by path.
const require = createRequire(import.meta.url);
const { verifyCheckpoint, LogCheckpoint } = require('@sigstore/verify/dist/tlog/checkpoint.js') as {
  verifyCheckpoint: (entry: unknown, tlogs: unknown[]) => { origin: string; logSize: bigint; logHash: Buffer };
  LogCheckpoint: { fromString: (note: string) => { origin: string; logSize: bigint; logHash: Buffer; rest: string[] } };
};
const { verifyMerkleInclusion } = require('@sigstore/verify/dist/tlog/merkle.js') as {
  verifyMerkleInclusion: (entry: unknown, checkpoint: unknown) => void;
};

const KEY = 'agent-key-for-interop-tests';
const ORIGIN = 'interop.example.org';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');

/** A proof file as Sigstore's entry: the entry's bytes, and the inclusion proof with its checkpoint envelope. */
function sigstoreEntry(proof: string): { entry: unknown; note: string } {
  const [head, note] = [proof.slice(0, proof.indexOf('\n\n')), proof.slice(proof.indexOf('\n\n') + 2)];
  const lines = head.split('\n');
  const extra = Buffer.from(lines[1].slice('extra '.length), 'base64');
  const index = lines[2].slice('index '.length);
  const hashes = lines.slice(3).map((h) => Buffer.from(h, 'base64'));
  const body = LogCheckpoint.fromString(note.slice(0, note.indexOf('\n\n') + 1));
  return {
    note,
    entry: {
      canonicalizedBody: extra,
      inclusionProof: { logIndex: index, treeSize: String(body.logSize), rootHash: body.logHash, hashes, checkpoint: { envelope: note } },
    },
  };
}

describe("Sigstore's verifier accepts the gateway's checkpoints and inclusion proofs", () => {
  const suite = gatewaySuite(
    { AGENT_API_KEY: KEY, AUDIT_ORIGIN: ORIGIN, AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() },
    { worker: false },
  );
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
  /** Sigstore finds a log by its key hint (the first 4 bytes of its log ID) and name; the hint here is the note key ID. */
  const authority = async () => {
    const vkey = (await (await call('/v1/audit/verifier-key')).text()).trim();
    const keyId = Buffer.from(vkey.split('+')[1], 'hex');
    return { logID: Buffer.concat([keyId, createHash('sha256').update(keyId).digest().subarray(4)]), publicKey, baseURL: `https://${ORIGIN}` };
  };

  it('checks every log of trees of 1 to 11 logs against each checkpoint, and refuses a changed proof', async () => {
    const tlog = await authority();
    const ids: string[] = [];
    for (let n = 1; n <= 11; n++) {
      const res = await call('/v1/ai-logs', { method: 'POST', body: `{"stage":"decision","model":"m","input":{"n":${n}},"output":{},"explanation":"e"}` });
      ids.push(((await res.json()) as { id: string }).id);
      expect((await call('/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);
      for (const id of ids) {
        const { entry, note } = sigstoreEntry(await (await call(`/v1/ai-logs/${id}/proof`)).text());
        const checkpoint = verifyCheckpoint(entry, [tlog]);
        expect(checkpoint).toMatchObject({ origin: `${ORIGIN}/default`, logSize: BigInt(n) });
        expect(() => verifyMerkleInclusion(entry, checkpoint)).not.toThrow();
        expect(note).toContain(`— ${ORIGIN} `);
      }
    }
    const { entry } = sigstoreEntry(await (await call(`/v1/ai-logs/${ids[4]}/proof`)).text());
    const checkpoint = verifyCheckpoint(entry, [tlog]);
    const proof = (entry as { inclusionProof: { hashes: Buffer[] } }).inclusionProof;
    proof.hashes[1] = Buffer.alloc(32, 1);
    expect(() => verifyMerkleInclusion(entry, checkpoint)).toThrow(/calculated root hash does not match/);
    const other = { ...tlog, publicKey: generateKeyPairSync('ed25519').publicKey };
    expect(() => verifyCheckpoint(entry, [other])).toThrow(/invalid checkpoint signature/);
  });
});
