import { ed25519CosignatureVerifier, ed25519Signer, ed25519Verifier, generateKey, openCheckpoint, signNote } from '#libs/signed-note';
import { MemoryStateStore } from './state-store.js';
import { TestLog } from './testing/test-log.js';
import { Witness } from './witness.js';

const WITNESS_KEY = generateKey('witness.example/w1').signerKey;
const NOW = 1_800_000_000n;

function setup() {
  const log = new TestLog('log.example/one').grow(10);
  const store = new MemoryStateStore();
  const witness = new Witness({ key: WITNESS_KEY, logs: [{ origin: log.origin, vkey: log.key.verifierKey }], store, now: () => NOW });
  return { log, store, witness };
}

describe('Witness.addCheckpoint', () => {
  it('cosigns a first checkpoint from old 0: lines that verify with its 0x04 key when appended to the checkpoint', async () => {
    const { log, store, witness } = setup();
    const answer = await witness.addCheckpoint(await log.body(0));
    expect(answer).toMatchObject({ status: 200, contentType: 'text/plain; charset=utf-8', origin: log.origin, oldSize: 0n, size: 10n });
    expect(answer.body).toMatch(/^— witness\.example\/w1 [A-Za-z0-9+/]+=*\n$/);
    const opened = openCheckpoint(log.checkpoint() + answer.body, {
      origin: log.origin,
      logVerifiers: [ed25519Verifier(log.key.verifierKey)],
      cosignerVerifiers: [ed25519CosignatureVerifier(witness.verifierKey)],
    });
    expect(opened.cosignatures.map((c) => [c.name, c.timestamp])).toEqual([['witness.example/w1', NOW]]);
    expect(store.heads.get(log.origin)).toEqual({ size: 10n, root: log.root() });
  });

  it('cosigns each growth of the tree with a consistency proof from the size it last cosigned', async () => {
    const { log, store, witness } = setup();
    expect((await witness.addCheckpoint(await log.body(0))).status).toBe(200);
    for (const grow of [1, 5, 22, 100]) {
      const old = log.size;
      log.grow(grow);
      const answer = await witness.addCheckpoint(await log.body(old));
      expect({ grow, status: answer.status, body: answer.body }).toMatchObject({ grow, status: 200 });
      expect(store.heads.get(log.origin)?.size).toBe(BigInt(log.size));
    }
  });

  it('cosigns the same tree again (a fresh timestamp), and keeps its record', async () => {
    const { log, store, witness } = setup();
    await witness.addCheckpoint(await log.body(0));
    const again = await witness.addCheckpoint(await log.body(10));
    expect(again.status).toBe(200);
    expect(store.heads.get(log.origin)).toEqual({ size: 10n, root: log.root() });
  });

  it('ignores signatures of unknown keys beside the trusted one', async () => {
    const { log, witness } = setup();
    const stranger = ed25519Signer(generateKey('stranger.example').signerKey);
    const answer = await witness.addCheckpoint(`old 0\n\n${log.checkpoint(10, stranger)}`);
    expect(answer.status).toBe(200);
  });

  it('answers 404 for an origin it does not know', async () => {
    const { witness } = setup();
    const other = new TestLog('other.example/log').grow(3);
    const answer = await witness.addCheckpoint(await other.body(0));
    expect(answer).toMatchObject({
      status: 404,
      body: 'unknown origin "other.example/log": this witness does not cosign for that log\n',
      origin: 'other.example/log',
    });
  });

  it('answers 403 when no trusted key signed, or its signature does not verify', async () => {
    const { log, witness } = setup();
    const impostor = new TestLog(log.origin).grow(10); // same origin, its own key
    const unknown = await witness.addCheckpoint(await impostor.body(0));
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatch(
      /^no signature by a key trusted for "log.example\/one" verifies: .*signed only by unknown keys: log.example\/one\+[0-9a-f]{8}/,
    );
    // The trusted key's name and ID on a signature it did not make.
    const forged = signNote(impostor.checkpoint().split('\n\n')[0] + '\n', { ...impostor.signer, keyId: log.signer.keyId });
    expect((await witness.addCheckpoint(`old 0\n\n${forged}`)).status).toBe(403);
  });

  it('answers 400 when the old size is beyond the checkpoint size', async () => {
    const { log, witness } = setup();
    const answer = await witness.addCheckpoint(`old 11\n\n${log.checkpoint()}`);
    expect(answer).toMatchObject({ status: 400, body: "old size 11 is greater than the checkpoint's size 10\n" });
  });

  it('answers 409 with the size it holds, as text/x.tlog.size, when the old size is not that size', async () => {
    const { log, witness } = setup();
    await witness.addCheckpoint(await log.body(0));
    log.grow(5);
    for (const old of [0, 3, 12]) {
      const answer = await witness.addCheckpoint(await log.body(old));
      expect({ old, status: answer.status, contentType: answer.contentType, body: answer.body }).toEqual({
        old,
        status: 409,
        contentType: 'text/x.tlog.size',
        body: '10\n',
      });
    }
  });

  it('answers 409 for another tree of the size it cosigned, with that size as the body', async () => {
    const { log, store, witness } = setup();
    await witness.addCheckpoint(await log.body(0));
    const fork = new TestLog(log.origin, log.key).grow(10);
    const answer = await witness.addCheckpoint(await fork.body(10));
    expect(answer).toMatchObject({ status: 409, contentType: 'text/x.tlog.size', body: '10\n' });
    expect(answer.reason).toBe('this witness cosigned a different tree of size 10 for the origin');
    expect(store.heads.get(log.origin)?.root).toEqual(log.root());
  });

  it('answers 409 for a tree of size 0 whose root is not the empty tree: it knows only one tree of size 0', async () => {
    const { log, witness } = setup();
    const odd = signNote(`${log.origin}\n0\n${log.root(1).toString('base64')}\n`, log.signer);
    expect(await witness.addCheckpoint(`old 0\n\n${odd}`)).toMatchObject({ status: 409, contentType: 'text/x.tlog.size', body: '0\n' });
    expect((await witness.addCheckpoint(await log.body(0, 0))).status).toBe(200);
  });

  it('answers 422 for a proof that does not verify, a proof from old 0, or a proof between equal sizes', async () => {
    const { log, store, witness } = setup();
    await witness.addCheckpoint(await log.body(0));
    // A tree that rewrote history: same first 10 leaves' count, different leaves, now 20.
    const fork = new TestLog(log.origin, log.key).grow(20);
    const forked = await witness.addCheckpoint(await fork.body(10));
    expect(forked.status).toBe(422);
    expect(forked.body).toMatch(/^the consistency proof from size 10 to 20 does not verify: root mismatch/);

    log.grow(10);
    const proof = await log.proof(10);
    const short = `old 10\n${proof
      .slice(1)
      .map((h) => `${h.toString('base64')}\n`)
      .join('')}\n${log.checkpoint()}`;
    expect((await witness.addCheckpoint(short)).status).toBe(422);

    const fresh = setup();
    const fromZero = await fresh.witness.addCheckpoint(`old 0\n${proof[0].toString('base64')}\n\n${fresh.log.checkpoint()}`);
    expect(fromZero).toMatchObject({ status: 422, body: 'the consistency proof must be empty when the old size is 0\n' });
    const same = await witness.addCheckpoint(`old 10\n${proof[0].toString('base64')}\n\n${log.checkpoint(10)}`);
    expect(same).toMatchObject({ status: 422, body: 'the consistency proof must be empty when the old size is the checkpoint size\n' });
    expect(store.heads.get(log.origin)?.size).toBe(10n);
  });

  it('answers 400 for malformed bodies and checkpoints, 413 beyond 64 KiB', async () => {
    const { log, witness } = setup();
    const checkpoint = log.checkpoint();
    const cases: Array<[string | Buffer, number, RegExp]> = [
      [`old 0\n${checkpoint}`, 400, /^line 2: a consistency proof line must be one 32-byte hash/],
      [`old 0\n\n${checkpoint.replace('\n10\n', '\n010\n')}`, 400, /tree size is not a decimal uint64 without leading zeros/],
      [`old 0\n\n${checkpoint.split('\n\n')[0]}\n`, 400, /^malformed note: no blank line before the signatures/],
      [`old 0\n\n${checkpoint.slice(0, -10)}`, 400, /^malformed note/],
      [
        Buffer.concat([Buffer.from('old 0\n\n'), Buffer.from(checkpoint).subarray(0, 40), Buffer.from([0xff]), Buffer.from(checkpoint).subarray(40)]),
        400,
        /not valid UTF-8/,
      ],
      [Buffer.alloc(64 * 1024 + 1, 0x61), 413, /the limit is 65536/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await witness.addCheckpoint(body);
      expect({ status: answer.status, body: answer.body }).toEqual({ status, body: expect.stringMatching(message) });
    }
  });

  it('answers 400 for checkpoint sizes beyond 2^63-1', async () => {
    const { log, witness } = setup();
    for (const size of [2n ** 63n, 2n ** 64n - 1n]) {
      const text = `${log.origin}\n${size}\n${log.root().toString('base64')}\n`;
      const answer = await witness.addCheckpoint(`old 0\n\n${signNote(text, log.signer)}`);
      expect({ size, status: answer.status, body: answer.body }).toEqual({ size, status: 400, body: `the checkpoint's tree size ${size} is beyond 2^63-1\n` });
    }
    const overflow = `${log.origin}\n${2n ** 64n}\n${log.root().toString('base64')}\n\n— x AAAAAAA=\n`;
    expect((await witness.addCheckpoint(`old 0\n\n${overflow}`)).status).toBe(400);
  });

  it('keeps one record per origin of a "/*" pattern, all checked with its one key', async () => {
    const key = generateKey('weex-ai-log-gateway.local');
    const store = new MemoryStateStore();
    const witness = new Witness({ key: WITNESS_KEY, logs: [{ origin: 'weex-ai-log-gateway.local/*', vkey: key.verifierKey }], store });
    const a = new TestLog('weex-ai-log-gateway.local/default', key).grow(4);
    const b = new TestLog('weex-ai-log-gateway.local/acct-2', key).grow(7);
    expect((await witness.addCheckpoint(await a.body(0))).status).toBe(200);
    expect((await witness.addCheckpoint(await b.body(0))).status).toBe(200);
    expect([...store.heads].map(([origin, head]) => [origin, head.size])).toEqual([
      ['weex-ai-log-gateway.local/default', 4n],
      ['weex-ai-log-gateway.local/acct-2', 7n],
    ]);
    const nested = new TestLog('weex-ai-log-gateway.local/a/b', key).grow(1);
    expect((await witness.addCheckpoint(await nested.body(0))).status).toBe(404);
  });
});
