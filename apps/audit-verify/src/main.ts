import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ExportVerifier, readPublicKey, type VerifyReport } from '#libs/audit-chain';

// `npm run audit:verify -- <export file> [--head <hash>] [--pubkey <file>]`: recomputes an audit export's hash chain
// and checkpoint signatures. Exit 0: unbroken; 1: broken (the first broken link is printed); 2: bad usage.
const USAGE = 'usage: npm run audit:verify -- <export.jsonl|export.csv> [--head <hash>] [--pubkey <public key PEM file>]';

function parseArgs(argv: string[]): { file: string; head?: string; pubkey?: string } {
  const args = { file: '', head: undefined as string | undefined, pubkey: undefined as string | undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--head') args.head = argv[++i];
    else if (argv[i] === '--pubkey') args.pubkey = argv[++i];
    else if (!args.file && !argv[i].startsWith('--')) args.file = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!args.file) throw new Error('no export file given');
  if (args.head !== undefined && !/^[0-9a-f]{64}$/.test(args.head)) throw new Error('--head must be 64 lower-case hex digits');
  return args;
}

async function verify(file: string, verifier: ExportVerifier): Promise<VerifyReport> {
  const total = statSync(file).size;
  const stream = createReadStream(file);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lastProgress = Date.now();
  for await (const line of lines) {
    if (!verifier.add(line)) break;
    if (Date.now() - lastProgress >= 1_000) {
      lastProgress = Date.now();
      process.stderr.write(`  ${((100 * stream.bytesRead) / Math.max(1, total)).toFixed(1)}% of ${(total / 1e6).toFixed(1)} MB read\n`);
    }
  }
  lines.close();
  stream.destroy();
  return verifier.finish();
}

try {
  const args = parseArgs(process.argv.slice(2));
  const publicKey = args.pubkey ? readPublicKey(readFileSync(args.pubkey, 'utf8')) : undefined;
  const report = await verify(args.file, new ExportVerifier({ head: args.head, publicKey }));
  if (report.ok) {
    const range = report.rows ? `seq ${report.firstSeq}..${report.lastSeq}` : 'no logs';
    process.stdout.write(`OK: ${report.rows} logs, ${range}, unbroken; last hash ${report.lastHash ?? '-'}\n`);
    const { verified, unchecked } = report.checkpoints;
    process.stdout.write(`checkpoints: ${verified} signatures verified${unchecked ? `, ${unchecked} not checked (give --pubkey)` : ''}\n`);
    if (args.head) process.stdout.write(`published head ${args.head} is in the chain\n`);
  } else {
    const at = report.broken!.seq ? `seq ${report.broken!.seq}, ` : '';
    process.stdout.write(`BROKEN at ${at}line ${report.broken!.line}: ${report.broken!.reason}\n`);
    process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exitCode = 2;
}
