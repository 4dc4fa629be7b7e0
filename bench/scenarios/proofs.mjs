import { generateKeyPairSync, sign } from 'node:crypto';
import { join } from 'node:path';
import { mixedBody, seedChains } from '../support/audit-chains.mjs';
import { mb, ms } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator } from '../support/gateway.mjs';
import { percentiles } from '../support/growth-measure.mjs';
import { freePort, NodeProcess, RssSampler } from '../support/processes.mjs';
import { withClient } from '../support/services.mjs';

const { applyMigrations, PrismaService } = await import('../../dist/libs/database/src/index.js');
const { AuditRows } = await import('../../dist/libs/ai-log/src/index.js');
const { AuditChainCheck, AuditCheckpointRepository, AuditCheckRepository, AuditTreeRepository, AuditWitnesses, AuditWitnessRepository } =
  await import('../../dist/libs/audit/src/index.js');
const { formatCheckpoint, formatVerifierKey, generateKey, parseVerifierKey, SIGNATURE_TYPE_ED25519, signNote } =
  await import('../../dist/libs/signed-note/src/index.js');

/** Logs in the account's tree (BENCH_PROOF_LOGS, default 1,000,000), of about 1 KB each; requests per kind of proof. */
const LOGS = Number(process.env.BENCH_PROOF_LOGS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_PROOF_REQUESTS ?? 2_000);
const GROWTH = 1_000;
const WITNESSES = 3;
const ORIGIN = 'bench.example.org';
const WITNESS_MAIN = new URL('../../dist/apps/witness/src/main.js', import.meta.url).pathname;
const TARGETS = { proofP99Ms: 10, proofBytes: 2048, consistencyP99Ms: 10, checkpointMs: 1_000 };

export const title = `Proofs over one account's tree of ${LOGS.toLocaleString('en')} logs: inclusion, consistency, a checkpoint cosigned by ${WITNESSES} local witnesses (start:api)`;

/**
 * Seeds the chain with SQL and builds its tree with the check (in this process, run after run); starts 3 witnesses and
 * the API; signs a checkpoint (the witnesses' first), grows the chain by 1,000 logs and times the next checkpoint
 * (check, signature, and each witness's cosignature over a consistency proof); then times inclusion proofs of random
 * logs and consistency proofs from random sizes, one request at a time.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const gatewayVkey = formatVerifierKey({
      name: ORIGIN,
      type: SIGNATURE_TYPE_ED25519,
      publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url'),
    });
    const sim = await startSimulator(cleanup);
    const base = await gatewayEnvironment(cleanup, { ...sim.weexEnv, AUDIT_ORIGIN: ORIGIN });
    const witnesses = [];
    for (let i = 0; i < WITNESSES; i++) {
      const { signerKey, verifierKey } = generateKey(`w${i + 1}.bench.example`);
      const port = await freePort();
      const witness = new NodeProcess(`witness-${i + 1}`, WITNESS_MAIN, {
        WITNESS_KEY: signerKey,
        WITNESS_LOGS: `${ORIGIN}/* ${gatewayVkey}`,
        WITNESS_STATE_FILE: join(base.dataDir, `witness-${i + 1}.json`),
        WITNESS_PORT: String(port),
        WITNESS_HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      });
      cleanup.defer(() => witness.stop());
      await witness.waitForHttp(`http://127.0.0.1:${port}/`);
      witnesses.push({ url: `http://127.0.0.1:${port}`, vkey: verifierKey });
    }
    const env = {
      ...base.env,
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      AUDIT_WITNESSES: witnesses.map((w) => `${w.url} ${w.vkey}`).join(';'),
    };

    const url = env.DATABASE_URL;
    const seedStarted = Date.now();
    await withClient(url, async (client) => {
      await applyMigrations(client);
      await seedChains(client, { logs: LOGS, body: mixedBody({ smallKb: 1, bigUntil: 0 }) });
    });
    const seedMs = Date.now() - seedStarted;
    const prisma = new PrismaService(url);
    cleanup.defer(() => prisma.$disconnect());
    const check = new AuditChainCheck(
      new AuditRows(prisma),
      new AuditCheckRepository(prisma),
      new AuditCheckpointRepository(prisma),
      new AuditTreeRepository(prisma),
    );
    const buildStarted = performance.now();
    // Until both chains are verified (the seeded logs have about 1.1 receipts each): only then is a checkpoint signed.
    for (let view = await check.run('default'); !view.complete; view = await check.run('default')) {
      if (!view.ok) throw new Error(`the check found the seeded chain broken: ${JSON.stringify(view.broken)}`);
    }
    const buildMs = performance.now() - buildStarted;

    const api = await startApi(cleanup, env);
    const rss = new RssSampler(api.pid);
    cleanup.defer(async () => rss.stop());
    const call = async (path, init = {}) => {
      const started = performance.now();
      const res = await fetch(`${api.url}${path}`, { ...init, headers: AUTH });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
      return { ms: performance.now() - started, body };
    };
    const first = await call('/v1/audit/checkpoints', { method: 'POST' });
    await withClient(url, (client) => seedChains(client, { logs: GROWTH, body: mixedBody({ smallKb: 1, bigUntil: 0 }) }));
    const grown = await call('/v1/audit/checkpoints', { method: 'POST' });
    const note = (await call('/v1/audit/checkpoint')).body;
    const cosigned = note.split('\n').filter((line) => line.startsWith('— w')).length;
    const size = LOGS + GROWTH;

    const seqs = Array.from({ length: REQUESTS }, () => 1 + Math.floor(Math.random() * size));
    const ids = await withClient(url, async (client) => {
      const { rows } = await client.query('SELECT seq::int AS seq, id::text AS id FROM ai_logs WHERE seq = ANY($1::bigint[])', [seqs]);
      return new Map(rows.map((r) => [r.seq, r.id]));
    });
    const proofTimes = [];
    let proofBytes = 0;
    for (const seq of seqs) {
      const { ms: took, body } = await call(`/v1/ai-logs/${ids.get(seq)}/proof`);
      proofTimes.push(took);
      const extra = /^extra .*\n/m.exec(body)[0];
      proofBytes = Math.max(proofBytes, Buffer.byteLength(body) - Buffer.byteLength(extra));
    }
    // The floor: the same authenticated read path answering one log by id (GET /v1/ai-logs/:id, one query).
    const viewTimes = [];
    for (const seq of seqs) viewTimes.push((await call(`/v1/ai-logs/${ids.get(seq)}`)).ms);
    const consistencyTimes = [];
    for (const seq of seqs) consistencyTimes.push((await call(`/v1/audit/consistency?from=${Math.min(seq, size)}&to=${size}`)).ms);
    // Signing and cosigning alone, as the worker does after its check: a checkpoint of 1,000 more logs, signed here
    // with the gateway's key and sent to the 3 witnesses with consistency proofs from the size they cosigned.
    await withClient(url, (client) => seedChains(client, { logs: GROWTH, body: mixedBody({ smallKb: 1, bigUntil: 0 }) }));
    const extended = await check.run('default');
    const witnessing = new AuditWitnesses(
      { auditWitnesses: env.AUDIT_WITNESSES, auditWitnessTimeoutMs: 5_000 },
      new AuditWitnessRepository(prisma),
      new AuditTreeRepository(prisma),
    );
    const signer = { name: ORIGIN, keyId: parseVerifierKey(gatewayVkey).keyId, sign: (message) => sign(null, message, privateKey) };
    const cosignStarted = performance.now();
    const text = formatCheckpoint({
      origin: `${ORIGIN}/default`,
      size: BigInt(extended.logs.verifiedSeq),
      rootHash: Buffer.from(extended.logs.treeRoot, 'base64'),
      extensions: [`receipt-chain ${extended.receipts.verifiedSeq} ${extended.receipts.verifiedHash}`],
    });
    const { answers } = await witnessing.cosign('default', signNote(text, signer));
    const cosignMs = performance.now() - cosignStarted;
    const cosignedAlone = [...answers.values()].filter((a) => a.outcome === 'cosigned').length;

    const proofs = percentiles(proofTimes.slice(REQUESTS / 10));
    const consistency = percentiles(consistencyTimes.slice(REQUESTS / 10));
    const views = percentiles(viewTimes.slice(REQUESTS / 10));
    const peak = rss.maxBetween(0);
    return {
      throughput: REQUESTS / (proofTimes.reduce((a, b) => a + b, 0) / 1000),
      unit: 'proofs/s (one at a time)',
      p50: proofs.p50,
      p99: proofs.p99,
      rssMb: peak,
      targets: [
        { text: `proof p99 ≤ ${TARGETS.proofP99Ms} ms`, pass: proofs.p99 <= TARGETS.proofP99Ms },
        { text: `proof ≤ ${TARGETS.proofBytes} bytes plus the entry`, pass: proofBytes <= TARGETS.proofBytes },
        { text: `consistency p99 ≤ ${TARGETS.consistencyP99Ms} ms`, pass: consistency.p99 <= TARGETS.consistencyP99Ms },
        {
          text: `checkpoint signed and cosigned by ${WITNESSES} witnesses ≤ ${TARGETS.checkpointMs} ms`,
          pass: cosignMs <= TARGETS.checkpointMs && cosignedAlone === WITNESSES && cosigned === WITNESSES,
        },
      ],
      details: [
        `seeded ${LOGS.toLocaleString('en')} logs with SQL in ${ms(seedMs)}; the check verified both chains and built the log tree in ${ms(buildMs)} (${((buildMs / LOGS) * 1000).toFixed(1)} ms per 1,000 logs with their receipts)`,
        `POST /v1/audit/checkpoints: ${ms(first.ms)} the first (each witness's first of this log), ${ms(grown.ms)} after ${GROWTH.toLocaleString('en')} more logs (check, signature, ${cosigned} cosignatures over consistency proofs)`,
        `a checkpoint of ${extended.logs.verifiedSeq} logs signed and sent to the witnesses (after the check, as the worker does): ${ms(cosignMs)}, ${cosignedAlone} cosignatures`,
        `inclusion proofs of ${REQUESTS.toLocaleString('en')} random logs (first tenth left out as warm-up): p50 ${ms(proofs.p50)}, p99 ${ms(proofs.p99)}, max ${ms(proofs.max)}; at most ${proofBytes} bytes besides the entry`,
        `for comparison, GET /v1/ai-logs/:id of the same logs: p50 ${ms(views.p50)}, p99 ${ms(views.p99)}, max ${ms(views.max)}`,
        `consistency proofs from random sizes to ${size.toLocaleString('en')}: p50 ${ms(consistency.p50)}, p99 ${ms(consistency.p99)}, max ${ms(consistency.max)}`,
        `API RSS peak ${mb(peak)}`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}
