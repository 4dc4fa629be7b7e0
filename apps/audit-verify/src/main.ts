import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { type ChainReport, ExportVerifier, readPublicKey, verifyProofFile, type VerifyReport } from '#libs/audit-chain';

// `npm run audit:verify -- <export file> [--head <hash>] [--pubkey <file>] [--allow-partial]`: recomputes an audit
// export's hash chains and signatures. Exit 0: unbroken and anchored; 1: broken (the first broken link is printed);
// 2: bad usage; 3: partial (a chain starts mid-way with no verified checkpoint before it), unless --allow-partial.
// `npm run audit:verify -- --proof <file> --key <vkey> [--witness <vkey>]... [--min-cosignatures <k>] [--origin <o>]`:
// checks one decision's proof file. Exit 0: verified; 1: not; 2: bad usage.
const USAGE = [
  'usage: npm run audit:verify -- <export.jsonl|export.csv> [--head <hash>] [--pubkey <public key PEM file>] [--allow-partial]',
  '       npm run audit:verify -- --proof <file> --key <verifier key or file> [--witness <verifier key or file>]... [--min-cosignatures <k>] [--origin <origin>]',
].join('\n');

interface ProofArgs {
  proof: string;
  key: string;
  witnesses: string[];
  minCosignatures?: number;
  origin?: string;
}

/** A verifier key given as itself or as a file holding it. */
const keyArg = (value: string | undefined, flag: string): string => {
  if (!value) throw new Error(`${flag} needs a verifier key or a file holding one`);
  return value.includes('+') || !existsSync(value) ? value : readFileSync(value, 'utf8').trim();
};

function parseProofArgs(argv: string[]): ProofArgs {
  const args: ProofArgs = { proof: '', key: '', witnesses: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--proof') args.proof = argv[++i] ?? '';
    else if (flag === '--key') args.key = keyArg(argv[++i], flag);
    else if (flag === '--witness') args.witnesses.push(keyArg(argv[++i], flag));
    else if (flag === '--origin') args.origin = argv[++i];
    else if (flag === '--min-cosignatures') {
      const k = argv[++i] ?? '';
      if (!/^\d{1,3}$/.test(k)) throw new Error('--min-cosignatures must be a whole number');
      args.minCosignatures = Number(k);
    } else throw new Error(`unexpected argument ${flag}`);
  }
  if (!args.proof) throw new Error('--proof needs the proof file');
  if (!args.key) throw new Error("--key is required: the gateway's verifier key (GET /v1/audit/verifier-key)");
  return args;
}

/** A proof file is a few kilobytes plus its entry (a log is at most 1 MiB): anything far beyond is not one. */
const MAX_PROOF_FILE_BYTES = 4 * 1024 * 1024;

/** Non-ASCII and control characters as \u escapes: an origin that only looks like the expected one must show. */
const visible = (text: string) => text.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

function verifyProof(args: ProofArgs): void {
  const size = statSync(args.proof).size;
  if (size > MAX_PROOF_FILE_BYTES) {
    process.stdout.write(`NOT VERIFIED: the file is ${size} bytes, more than a proof file can be (${MAX_PROOF_FILE_BYTES})\n`);
    process.exitCode = 1;
    return;
  }
  const file = readFileSync(args.proof);
  if (file[0] === 0x7b) {
    // What curl saves when the gateway answered an error (a 409 before any checkpoint covers the log, a 404).
    process.stdout.write(`NOT VERIFIED: this is not a proof file but a JSON answer, probably an error: ${visible(file.subarray(0, 300).toString('utf8'))}\n`);
    process.exitCode = 1;
    return;
  }
  const report = verifyProofFile(file, {
    key: args.key,
    origin: args.origin,
    witnesses: args.witnesses,
    minCosignatures: args.minCosignatures,
  });
  if (!report.ok) {
    process.stdout.write(`NOT VERIFIED: ${report.reason}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(
    `VERIFIED: log at index ${report.index} (seq ${report.index + 1n}) of ${visible(report.origin)}, in its signed tree of ${report.size} logs\n`,
  );
  if (!args.origin) process.stdout.write(`origin not checked: give --origin to refuse a proof of another account, or of a look-alike one\n`);
  for (const line of report.extensions) process.stdout.write(`checkpoint extension: ${line}\n`);
  const cosigners = report.cosignatures.map((c) => `${c.name} at ${new Date(Number(c.timestamp) * 1000).toISOString()}`);
  process.stdout.write(`cosigned by: ${cosigners.length ? cosigners.join(', ') : 'no witness given'}\n`);
  process.stdout.write(`the log as accepted:\n${report.entry}\n`);
}

function parseArgs(argv: string[]): { file: string; head?: string; pubkey?: string; allowPartial: boolean } {
  const args = { file: '', head: undefined as string | undefined, pubkey: undefined as string | undefined, allowPartial: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--head') args.head = argv[++i];
    else if (argv[i] === '--pubkey') args.pubkey = argv[++i];
    else if (argv[i] === '--allow-partial') args.allowPartial = true;
    else if (!args.file && !argv[i].startsWith('--')) args.file = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!args.file) throw new Error('no export file given');
  if (args.head !== undefined && !/^[0-9a-f]{64}$/.test(args.head)) throw new Error('--head must be 64 lower-case hex digits');
  return args;
}

/** Feeds the file line by line, split at line feeds only: a carriage return inside a CSV cell is part of its value. */
async function verify(file: string, verifier: ExportVerifier): Promise<VerifyReport> {
  const total = statSync(file).size;
  const stream = createReadStream(file);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let lastProgress = Date.now();
  reading: for await (const chunk of stream) {
    const lines = (rest + decoder.write(chunk as Buffer)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (!verifier.add(line)) break reading;
    if (Date.now() - lastProgress >= 1_000) {
      lastProgress = Date.now();
      process.stderr.write(`  ${((100 * stream.bytesRead) / Math.max(1, total)).toFixed(1)}% of ${(total / 1e6).toFixed(1)} MB read\n`);
    }
  }
  stream.destroy();
  rest += decoder.end();
  if (rest) verifier.add(rest, true);
  return verifier.finish();
}

function describe(name: string, chain: ChainReport): string {
  if (!chain.count) return `no ${name}`;
  const from = chain.start === 'genesis' ? 'from the genesis hash' : `after a ${chain.start}`;
  return `${chain.count} ${name}, seq ${chain.firstSeq}..${chain.lastSeq}, unbroken ${from}; last hash ${chain.lastHash}`;
}

// A reader that stops early (`| head`) is not a failure of the check.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

try {
  const argv = process.argv.slice(2);
  if (argv.includes('--proof')) verifyProof(parseProofArgs(argv));
  else await verifyExport(parseArgs(argv));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exitCode = 2;
}

async function verifyExport(args: ReturnType<typeof parseArgs>): Promise<void> {
  const publicKey = args.pubkey ? readPublicKey(readFileSync(args.pubkey, 'utf8')) : undefined;
  const report = await verify(args.file, new ExportVerifier({ head: args.head, publicKey }));
  if (report.ok) {
    const logs: ChainReport = { count: report.rows, firstSeq: report.firstSeq, lastSeq: report.lastSeq, lastHash: report.lastHash, start: report.logStart };
    process.stdout.write(`${report.partial ? (args.allowPartial ? 'PARTIAL (allowed)' : 'PARTIAL') : 'OK'}: ${describe('logs', logs)}\n`);
    process.stdout.write(`receipts: ${describe('receipts', report.receipts)}\n`);
    const { verified, unchecked } = report.checkpoints;
    process.stdout.write(`checkpoints: ${verified} signatures verified${unchecked ? `, ${unchecked} not checked (give --pubkey)` : ''}\n`);
    const end = {
      signed: 'signed by the given key',
      unchecked: 'signature not checked (give --pubkey)',
      unsigned: 'not signed (the gateway had no signing key)',
    };
    process.stdout.write(`end line: counts agree, ${end[report.end ?? 'unsigned']}\n`);
    if (args.head) process.stdout.write(`published head ${args.head} is in the chain\n`);
    if (report.partial) {
      process.stdout.write(`partial: ${report.partial}\n`);
      if (!args.allowPartial) process.exitCode = 3;
    }
  } else {
    const at = report.broken!.seq ? `seq ${report.broken!.seq}, ` : '';
    process.stdout.write(`BROKEN at ${at}line ${report.broken!.line}: ${report.broken!.reason}\n`);
    process.exitCode = 1;
  }
}
