import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { leafHash, verifyConsistency, verifyInclusion } from '#libs/merkle-tree';
import { ed25519Signer, ed25519Verifier, generateKey, openCheckpoint, parseCheckpoint, parseTlogProof, parseVerifierKey, signNote } from '#libs/signed-note';
import { gatewaySuite } from './support/gateway-suite.js';
import { goTlog, itWithGo } from './support/go-tlog.js';

// Go's checksum-database code (golang.org/x/mod/sumdb/note and sumdb/tlog) against ours, both ways: it opens the
// gateway's checkpoints with the gateway's verifier key, checks its inclusion and consistency proofs and builds the
// same roots from the logged entries; and our verifiers accept Go's keys, notes and proofs.
const KEY = 'agent-key-for-go-interop';
const ORIGIN = 'go-interop.example.org';
const LOGS = 12;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64');
/** The note with one byte of its first signature changed (the last base64 character before the final newline). */
const flipSignature = (note: string) => note.slice(0, -2) + (note.at(-2) === 'A' ? 'B' : 'A') + '\n';

describe("Go's sumdb note and tlog packages and the gateway's checkpoints and proofs", () => {
  const suite = gatewaySuite(
    {
      AGENT_API_KEY: KEY,
      AUDIT_ORIGIN: ORIGIN,
      AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    },
    { worker: false },
  );
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  };

  itWithGo('Go opens every checkpoint, checks every proof and builds the same tree', async () => {
    const ids: string[] = [];
    const notes: string[] = [];
    for (let n = 1; n <= LOGS; n++) {
      const body = JSON.stringify({
        stage: 'decision',
        model: 'm',
        input: { n, text: 'é €' },
        output: { big: 737185556881998184n.toString() },
        explanation: `log ${n}`,
      });
      ids.push(((await (await call('/v1/ai-logs', { method: 'POST', body })).json()) as { id: string }).id);
      await call('/v1/audit/checkpoints', { method: 'POST' });
      notes.push(await (await call('/v1/audit/checkpoint')).text());
    }
    const vkey = (await (await call('/v1/audit/verifier-key')).text()).trim();
    const roots = notes.map((note) => b64(parseCheckpoint(note.slice(0, note.indexOf('\n\n') + 1)).rootHash));
    const proofs = await Promise.all(ids.map(async (id) => parseTlogProof(await (await call(`/v1/ai-logs/${id}/proof`)).text())));
    const entries = proofs.map((p) => b64(p.extra!));

    // The notes: Go's verifier, built from our vkey, finds our signature by its key ID and checks it.
    const opened = await goTlog(notes.map((note) => ({ op: 'open', note, vkeys: [vkey] })));
    opened.forEach((answer, i) => {
      expect(answer).toMatchObject({ ok: true, text: notes[i].slice(0, notes[i].indexOf('\n\n') + 1) });
      expect(answer.verified).toEqual([{ name: ORIGIN, hash: parseVerifierKey(vkey).keyId }]);
    });
    const [flipped, otherKey] = await goTlog([
      { op: 'open', note: flipSignature(notes[3]), vkeys: [vkey] },
      { op: 'open', note: notes[3], vkeys: [generateKey(ORIGIN).verifierKey] },
    ]);
    expect(flipped).toMatchObject({ ok: false, error: expect.stringMatching(/invalid signature/) });
    expect(otherKey).toMatchObject({ ok: false, error: 'note has no verifiable signatures' });

    // The proofs: inclusion of each log's entry in the tree its proof names, and consistency of every pair of trees.
    const inclusion = await goTlog(
      proofs.map((p) => {
        const size = Number(parseCheckpoint(p.checkpoint.slice(0, p.checkpoint.indexOf('\n\n') + 1)).size);
        return { op: 'inclusion', index: Number(p.index), size, root: roots[size - 1], entry: b64(p.extra!), hashes: p.hashes.map(b64) };
      }),
    );
    expect(inclusion.map((a) => a.error ?? 'ok')).toEqual(ids.map(() => 'ok'));
    const pairs: { from: number; size: number; hashes: string[] }[] = [];
    for (let to = 1; to <= LOGS; to++) {
      for (let from = 1; from <= to; from++) {
        const { hashes } = (await (await call(`/v1/audit/consistency?from=${from}&to=${to}`)).json()) as { hashes: string[] };
        pairs.push({ from, size: to, hashes });
      }
    }
    const consistency = await goTlog(pairs.map((p) => ({ op: 'consistency', ...p, fromRoot: roots[p.from - 1], root: roots[p.size - 1] })));
    expect(consistency.map((a) => a.error ?? 'ok')).toEqual(pairs.map(() => 'ok'));

    // Go's own tree over the logged entries: the same roots, and proofs equal to ours hash for hash.
    const [tree] = await goTlog([{ op: 'tree', entries }]);
    expect(tree.tree!.roots).toEqual(roots);
    proofs.forEach((p, i) => expect(p.hashes.map(b64)).toEqual(tree.tree!.inclusion[LOGS - 1][i]));
    for (const { from, size, hashes } of pairs) expect(hashes).toEqual(tree.tree!.consistency[size - 1][from - 1]);

    // A changed hash fails in Go too.
    const bad = proofs[4].hashes.map(b64);
    bad[1] = b64(Buffer.alloc(32, 1));
    const [refused] = await goTlog([{ op: 'inclusion', index: 4, size: LOGS, root: roots[LOGS - 1], entry: entries[4], hashes: bad }]);
    expect(refused).toMatchObject({ ok: false, error: 'invalid transparency proof' });
  });

  itWithGo("our verifiers accept Go's keys, signed checkpoints and proofs, and Go accepts our keys", async () => {
    const entries = Array.from({ length: 33 }, (_, i) => b64(randomBytes(i % 7)));
    const [{ tree }] = await goTlog([{ op: 'tree', entries }]);
    const { roots, inclusion, consistency } = tree!;
    for (let n = 1; n <= entries.length; n++) {
      for (let i = 0; i < n; i++) {
        expect(verifyInclusion(leafHash(unb64(entries[i])), i, n, inclusion[n - 1][i].map(unb64), unb64(roots[n - 1]))).toEqual({ ok: true });
        const m = i + 1;
        expect(verifyConsistency(m, n, consistency[n - 1][m - 1].map(unb64), unb64(roots[m - 1]), unb64(roots[n - 1]))).toEqual({ ok: true });
      }
    }
    expect(verifyInclusion(leafHash(unb64(entries[3])), 3, 33, inclusion[32][4].map(unb64), unb64(roots[32])).ok).toBe(false);

    // A checkpoint signed by a Go key: our checkpoint verifier opens it with Go's vkey, and refuses it changed.
    const text = `example.com/go-log\n33\n${roots[32]}\n`;
    const [go] = await goTlog([{ op: 'sign', name: 'example.com/go-log', text }]);
    const checkpoint = openCheckpoint(go.signed!, { origin: 'example.com/go-log', logVerifiers: [ed25519Verifier(go.vkey!)] });
    expect(checkpoint.checkpoint).toMatchObject({ size: 33n, rootHash: unb64(roots[32]) });
    expect(() => openCheckpoint(flipSignature(go.signed!), { origin: 'example.com/go-log', logVerifiers: [ed25519Verifier(go.vkey!)] })).toThrow();

    // Keys both ways: Go signs with our signer key and our verifier opens it; we sign with Go's and Go opens it.
    const ours = generateKey('gateway.example.org/default');
    const [signedByGo] = await goTlog([{ op: 'sign', skey: ours.signerKey, text }]);
    expect(openCheckpoint(signedByGo.signed!, { origin: 'example.com/go-log', logVerifiers: [ed25519Verifier(ours.verifierKey)] }).checkpoint.size).toBe(33n);
    const signedByUs = signNote(text, ed25519Signer(go.skey!));
    expect(signedByUs).toBe(go.signed); // Ed25519 is deterministic: the same key and text give the same note.
    const [openedInGo] = await goTlog([{ op: 'open', note: signNote(text, ed25519Signer(ours.signerKey)), vkeys: [ours.verifierKey] }]);
    expect(openedInGo).toMatchObject({ ok: true, verified: [{ name: 'gateway.example.org/default', hash: parseVerifierKey(ours.verifierKey).keyId }] });
  });
});
