import { ConflictException, Controller, Get, HttpCode, NotFoundException, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors, ApiTextAnswer } from '#libs/api-docs';
import { CSV_COLUMNS, csvCell } from '#libs/audit-chain';
import {
  AuditChainCheck,
  type AuditCheckView,
  AuditCheckpoints,
  AuditExport,
  AuditExportQueryDto,
  AuditProofs,
  type ConsistencyView,
  ConsistencyQueryDto,
  consistencySizes,
  AuditReportService,
  AuditSigner,
  AuditWindowQueryDto,
  AuditWitnesses,
  exportWindow,
  type ChainHead,
  type CheckpointView,
  renderReport,
  REPORT_SECURITY,
  reportWindow,
  type WitnessKeyView,
} from '#libs/audit';
import { disconnectSignal, NoQueryDto, securePage } from '#libs/http';
import { AuditCheckDto, ChainHeadDto, CheckpointDto, CheckpointListDto, ConsistencyDto, PublicKeyDto, WitnessKeyListDto } from './audit.responses.js';
import { AgentApi, Scopes } from './controller-kinds.js';

const HASH = '9f2c0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928';
const RECEIPTS = { seq: '1790', hash: '5be1…64 hex…' };
const HEAD = {
  seq: '1842',
  hash: HASH,
  at: '2026-11-22T10:00:00.000Z',
  receipts: RECEIPTS,
  stored: { firstSeq: '1', lastSeq: '1842', lastHash: HASH },
  check: { ok: true, checkedAt: '2026-11-22T10:00:30.000Z', verifiedSeq: '1842', broken: null },
  witnesses: [
    {
      witness: 'witness.example.org+8c4a2f10',
      cosignedSize: '1842',
      cosignedLatest: true,
      cosignedAt: '2026-11-22T10:00:00.400Z',
      outcome: 'cosigned',
      error: null,
      attemptedAt: '2026-11-22T10:00:00.400Z',
    },
  ],
};
const EXPORT_LINE = JSON.stringify({
  type: 'log',
  seq: '1',
  prevHash: '000…0',
  hash: '9f2c…',
  log: {},
  upload: { receiptSeq: '1', status: 'uploaded', at: '2026-11-22T10:00:01.000Z', exchangeCode: '00000' },
  orders: [],
});
const CHECKPOINT = {
  accountId: 'default',
  seq: '1842',
  hash: HASH,
  receiptSeq: RECEIPTS.seq,
  receiptHash: RECEIPTS.hash,
  at: '2026-11-22T10:00:00.000Z',
  signature: 'MEUCIQ…base64…',
  keyId: '4b1d…64 hex…',
};
const VKEY = 'weex-ai-log-gateway.local+5a0e9c1f+AQ3uQ5v1PqJ8mYl7sRkqH4tq0WfZbLxG2c9oD6jVnE1U';
const NOTE = [
  'weex-ai-log-gateway.local/default',
  '1842',
  'nB1ox0jSG6RkJ2iHmIfb0c6Rmdf5yq0MFx9lh8Xm9Ls=',
  `receipt-chain ${RECEIPTS.seq} ${RECEIPTS.hash}`,
  '',
  '— weex-ai-log-gateway.local Wg6cH2nXk…base64 signature…',
  '',
].join('\n');
const CHECK = {
  accountId: 'default',
  ok: false,
  checkedAt: '2026-11-22T10:00:30.000Z',
  complete: false,
  runningSince: null,
  logs: { verifiedSeq: '1', verifiedHash: '3c9d…64 hex…', sweptAt: null, treeRoot: 'nB1ox0jSG6RkJ2iHmIfb0c6Rmdf5yq0MFx9lh8Xm9Ls=' },
  receipts: { verifiedSeq: '1790', verifiedHash: RECEIPTS.hash, sweptAt: null },
  broken: { chain: 'logs', seq: '2', reason: 'seq 3 follows seq 1: logs are missing', since: '2026-11-22T10:00:30.000Z' },
};

/**
 * The account's tamper-evident audit trail: the chain head, signed checkpoints, the public key that checks them, and
 * streaming exports that `npm run audit:verify` checks offline.
 */
@Controller('v1/audit')
/** Judges read all of it (audit:read); signing a checkpoint now is the team's (exchange:read). */
@AgentApi('Audit', 'exchange:read', 'audit:read')
export class AuditController {
  constructor(
    private readonly checkpoints: AuditCheckpoints,
    private readonly check: AuditChainCheck,
    private readonly exports: AuditExport,
    private readonly signer: AuditSigner,
    private readonly reports: AuditReportService,
    private readonly proofs: AuditProofs,
    private readonly witnesses: AuditWitnesses,
  ) {}

  @Get('head')
  @ApiEndpoint(
    "The latest link of the account's hash chain, and whether the stored chain holds up",
    'Publish it (or a signed checkpoint) to commit to every log before it. `stored` is what the table holds now (a head whose logs were deleted shows at once); `check` is the server-side check (see GET /v1/audit/verify) with those ends compared.',
  )
  @ApiAnswer(200, 'The head', ChainHeadDto, HEAD)
  getAuditHead(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<ChainHead> {
    return this.checkpoints.head(agent.accountId);
  }

  @Get('checkpoints')
  @ApiEndpoint('Signed checkpoints of the head (Ed25519), oldest first')
  @ApiAnswer(200, 'Checkpoints', CheckpointListDto, { data: [CHECKPOINT] })
  async listAuditCheckpoints(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<{ data: CheckpointView[] }> {
    return { data: await this.checkpoints.list(agent.accountId) };
  }

  @Post('checkpoints')
  @HttpCode(200)
  @ApiEndpoint(
    'Check the chains and sign their heads now',
    'Answers the new checkpoint of both chains (logs and upload receipts), or the latest one when they have not moved since. 409 when the check finds the chain broken: nothing is signed then.',
  )
  @ApiAnswer(200, 'The checkpoint of the current heads', CheckpointDto, CHECKPOINT)
  @ApiErrors(409)
  @Scopes(['exchange:read'])
  async createAuditCheckpoint(@Agent() { accountId }: AgentIdentity): Promise<CheckpointView> {
    const { made, check } = await this.checkpoints.checkpoint(accountId);
    if (check.broken)
      throw new ConflictException(`nothing signed: the ${check.broken.chain} chain is broken at seq ${check.broken.seq ?? '-'}: ${check.broken.reason}`);
    const latest = made ?? (await this.checkpoints.list(accountId)).at(-1);
    if (!latest) throw new ConflictException('nothing to sign: no signing key (AUDIT_SIGNING_KEY) or no logs yet');
    return latest;
  }

  @Get('verify')
  @ApiEndpoint(
    "Check the account's stored chains now, from where the last check got to",
    "Verifies both chains (logs and upload receipts) past the verified frontier, each log's status against its last receipt, the stored checkpoints, that no row is missing, outside a chain or beyond its head, and a slice of the older links again. The worker runs the same check every AUDIT_CHECK_INTERVAL_MS, AUDIT_CHECK_LINKS_PER_MIN at a time, where this request does a full run (metric gateway_audit_chain_ok). While a run of the worker (or another request) holds the account, answers at once with the last completed result (`checkedAt`) and when that run started (`runningSince`). `complete` is false while more is left than one run takes; `broken` names the first thing found.",
  )
  @ApiAnswer(200, 'Where the check stands', AuditCheckDto, CHECK)
  verifyAuditChain(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<AuditCheckView> {
    return this.check.run(agent.accountId);
  }

  @Get('checkpoint')
  @ApiEndpoint(
    'The latest checkpoint as a c2sp.org/tlog-checkpoint signed note',
    "Origin `<AUDIT_ORIGIN>/<accountId>`, the number of logs in the Merkle tree (RFC 9162), its root (base64), the receipt chain's head as the extension line `receipt-chain <seq> <hash>`, then the Ed25519 signature line of the key GET /v1/audit/verifier-key serves. Any c2sp.org/signed-note implementation opens it. 404 before the first checkpoint, or without a signing key.",
  )
  @ApiTextAnswer('The signed checkpoint', { 'text/plain': NOTE })
  @ApiErrors(404)
  async getAuditCheckpoint(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity, @Res() reply: FastifyReply): Promise<void> {
    const latest = await this.proofs.latestCheckpoint(agent.accountId);
    if (!latest) throw new NotFoundException('no checkpoint of the log tree is signed yet: POST /v1/audit/checkpoints signs one (it needs AUDIT_SIGNING_KEY)');
    void reply.type('text/plain; charset=utf-8').send(latest);
  }

  @Get('verifier-key')
  @ApiEndpoint(
    "The checkpoints' key as a c2sp.org/signed-note verifier key",
    '`<name>+<hex key id>+<base64 key>`, the name being AUDIT_ORIGIN: what `npm run audit:verify -- --proof FILE --key VKEY` and any note verifier take. The same Ed25519 key as GET /v1/audit/public-key.',
  )
  @ApiTextAnswer('The verifier key, one line', { 'text/plain': `${VKEY}\n` })
  @ApiErrors(404)
  getAuditVerifierKey(@Query() _query: NoQueryDto, @Res() reply: FastifyReply): void {
    const vkey = this.signer.verifierKey();
    if (!vkey) throw new NotFoundException('no audit signing key is configured (AUDIT_SIGNING_KEY)');
    void reply.type('text/plain; charset=utf-8').send(`${vkey}\n`);
  }

  @Get('witnesses')
  @ApiEndpoint(
    'The witnesses asked to cosign each checkpoint, with their verifier keys',
    "The witnesses of AUDIT_WITNESSES: the keys that check the cosignature lines (c2sp.org/tlog-cosignature) of the checkpoints and proofs. Served by the gateway itself, so a judge compares them with a list the team cannot change (the organiser's) before trusting them.",
  )
  @ApiAnswer(200, 'The configured witnesses', WitnessKeyListDto, {
    data: [{ witness: HEAD.witnesses[0].witness, verifierKey: 'witness.example.org+8c4a2f10+BJ2f4x0kQm7p1V5sRkqH4tq0WfZbLxG2c9oD6jVnE1UA' }],
  })
  listAuditWitnesses(@Query() _query: NoQueryDto): { data: WitnessKeyView[] } {
    return { data: this.witnesses.verifierKeys() };
  }

  @Get('consistency')
  @ApiEndpoint(
    'Proof that the tree of `from` logs is a prefix of the tree of `to` logs (RFC 9162 §2.1.4)',
    'What a witness checks before it cosigns a larger checkpoint: nothing before `from` was changed or removed. Sizes are decimal strings; 400 unless 1 <= from <= to; 404 when `to` is beyond the logs verified so far.',
  )
  @ApiAnswer(200, 'The proof: hashes, base64, in RFC 9162 order', ConsistencyDto, {
    from: '1000',
    to: '1842',
    hashes: ['nB1ox0jSG6RkJ2iHmIfb0c6Rmdf5yq0MFx9lh8Xm9Ls='],
  })
  @ApiErrors(400, 404)
  getAuditConsistency(@Query() query: ConsistencyQueryDto, @Agent() agent: AgentIdentity): Promise<ConsistencyView> {
    const { from, to } = consistencySizes(query);
    return this.proofs.consistency(agent.accountId, from, to);
  }

  @Get('public-key')
  @ApiEndpoint('The Ed25519 public key (SPKI PEM) that checks the checkpoints', 'Save it and pass it to `npm run audit:verify -- --pubkey`.')
  @ApiAnswer(200, 'The key', PublicKeyDto, { pem: '-----BEGIN PUBLIC KEY-----\\n…\\n-----END PUBLIC KEY-----\\n', keyId: '4b1d…' })
  @ApiErrors(404)
  getAuditPublicKey(@Query() _query: NoQueryDto): { pem: string; keyId: string } {
    const key = this.signer.publicKey();
    if (!key) throw new NotFoundException('no audit signing key is configured (AUDIT_SIGNING_KEY)');
    return key;
  }

  @Get('export')
  @ApiEndpoint(
    'Stream the logs with their chain links, upload receipts, orders and fills',
    'JSONL (verifiable line by line) or CSV (every cell quoted, formula characters neutralised). Millions of rows stream without being held in memory. A window that starts mid-chain begins after the latest checkpoint signed before `from`; the last line is a signed count of what came before it.',
  )
  @ApiTextAnswer('The export: JSONL (the default) or CSV, streamed', {
    'application/x-ndjson': `${EXPORT_LINE}\n`,
    'text/csv': `${CSV_COLUMNS.map(csvCell).join(',')}\n`,
  })
  @ApiErrors(400)
  exportAuditTrail(@Query() query: AuditExportQueryDto, @Agent() agent: AgentIdentity, @Res() reply: FastifyReply): void {
    const { from, to } = exportWindow(query);
    const format = query.format ?? 'jsonl';
    const window = { accountId: agent.accountId, from, to };
    const name = `audit-${window.accountId}-${from.toISOString().slice(0, 10)}-${to.toISOString().slice(0, 10)}.${format}`;
    void reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(format === 'csv' ? this.exports.csv(window) : this.exports.jsonl(window));
  }

  @Get('report')
  @ApiEndpoint(
    'The report for judges: decisions against fills, coverage, models, gaps and the chain head',
    'An HTML page; the window is at most 90 days (default: the last 7). 503 `QUERY_TIMEOUT` when a statement runs past API_STATEMENT_TIMEOUT_MS.',
  )
  @ApiTextAnswer('The report', { 'text/html': '<!doctype html>…' })
  @ApiErrors(400, 503)
  async getAuditReport(@Query() query: AuditWindowQueryDto, @Agent() agent: AgentIdentity, @Res() reply: FastifyReply): Promise<void> {
    const { from, to } = reportWindow(query);
    const html = renderReport(await this.reports.gather(agent.accountId, from, to, disconnectSignal(reply.raw)));
    securePage(reply, REPORT_SECURITY);
    void reply.type('text/html; charset=utf-8').send(html);
  }
}
