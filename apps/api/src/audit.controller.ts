import { ConflictException, Controller, Get, HttpCode, NotFoundException, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import {
  AuditCheckpoints,
  AuditExport,
  AuditReportService,
  AuditSigner,
  type ChainHead,
  type CheckpointView,
  readAuditQuery,
  renderReport,
} from '#libs/audit';
import { ValidationFailedException } from '#libs/http';
import { ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';

const HEAD = { seq: '1842', hash: '9f2c0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928', at: '2026-11-22T10:00:00.000Z' };
const CHECKPOINT = { accountId: 'default', ...HEAD, signature: 'MEUCIQ…base64…', keyId: '4b1d…64 hex…' };

/**
 * The account's tamper-evident audit trail: the chain head, signed checkpoints, the public key that checks them, and
 * streaming exports that `npm run audit:verify` checks offline.
 */
@Controller('v1/audit')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:read')
@ApiAgentController('Audit')
export class AuditController {
  constructor(
    private readonly checkpoints: AuditCheckpoints,
    private readonly exports: AuditExport,
    private readonly signer: AuditSigner,
    private readonly reports: AuditReportService,
  ) {}

  @Get('head')
  @ApiEndpoint("The latest link of the account's hash chain", 'Publish it (or a signed checkpoint) to commit to every log before it.')
  @ApiAnswer(200, 'The head', HEAD)
  @ApiErrors(401, 403, 429)
  head(@Req() req: AgentRequest): Promise<ChainHead> {
    return this.checkpoints.head(req.agent!.accountId);
  }

  @Get('checkpoints')
  @ApiEndpoint('Signed checkpoints of the head (Ed25519), oldest first')
  @ApiAnswer(200, 'Checkpoints', { data: [CHECKPOINT] })
  @ApiErrors(401, 403, 429)
  async list(@Req() req: AgentRequest): Promise<{ data: CheckpointView[] }> {
    return { data: await this.checkpoints.list(req.agent!.accountId) };
  }

  @Post('checkpoints')
  @HttpCode(200)
  @ApiEndpoint('Sign the current head now', 'Answers the new checkpoint, or the latest one when the head has not moved since.')
  @ApiAnswer(200, 'The checkpoint of the current head', CHECKPOINT)
  @ApiErrors(401, 403, 409, 429)
  async checkpoint(@Req() req: AgentRequest): Promise<CheckpointView> {
    const accountId = req.agent!.accountId;
    const made = await this.checkpoints.checkpoint(accountId);
    const latest = made ?? (await this.checkpoints.list(accountId)).at(-1);
    if (!latest) throw new ConflictException('nothing to sign: no signing key (AUDIT_SIGNING_KEY) or no logs yet');
    return latest;
  }

  @Get('public-key')
  @ApiEndpoint('The Ed25519 public key (SPKI PEM) that checks the checkpoints', 'Save it and pass it to `npm run audit:verify -- --pubkey`.')
  @ApiAnswer(200, 'The key', { pem: '-----BEGIN PUBLIC KEY-----\\n…\\n-----END PUBLIC KEY-----\\n', keyId: '4b1d…' })
  @ApiErrors(401, 403, 404, 429)
  publicKey(): { pem: string; keyId: string } {
    const key = this.signer.publicKey();
    if (!key) throw new NotFoundException('no audit signing key is configured (AUDIT_SIGNING_KEY)');
    return key;
  }

  @Get('export')
  @ApiEndpoint('Stream the logs with their chain links, upload receipts, orders and fills', 'JSONL (verifiable line by line) or CSV. Millions of rows stream without being held in memory.')
  @ApiQuery({ name: 'from', required: false, description: 'ISO-8601 or epoch ms; logs received at or after' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO-8601 or epoch ms; logs received before' })
  @ApiQuery({ name: 'format', required: false, enum: ['jsonl', 'csv'] })
  @ApiProduces('application/x-ndjson', 'text/csv')
  @ApiAnswer(200, 'The export', { type: 'log', seq: '1', prevHash: '000…0', hash: '9f2c…', log: {}, upload: { status: 'uploaded' }, orders: [] })
  @ApiErrors(400, 401, 403, 429)
  export(@Query() query: Record<string, unknown>, @Req() req: AgentRequest, @Res() reply: FastifyReply): void {
    const { from, to, format } = readAuditQuery(query, ['jsonl', 'csv']);
    const window = { accountId: req.agent!.accountId, from, to };
    const name = `audit-${window.accountId}-${from.toISOString().slice(0, 10)}-${to.toISOString().slice(0, 10)}.${format}`;
    void reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(format === 'csv' ? this.exports.csv(window) : this.exports.jsonl(window));
  }

  @Get('report')
  @ApiEndpoint('The report for judges: decisions against fills, coverage, models, gaps and the chain head', 'An HTML page; the window is at most 90 days (default: the last 7).')
  @ApiQuery({ name: 'from', required: false, description: 'ISO-8601 or epoch ms' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO-8601 or epoch ms' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The report', content: { 'text/html': { example: '<!doctype html>…' } } })
  @ApiErrors(400, 401, 403, 429)
  async report(@Query() query: Record<string, unknown>, @Req() req: AgentRequest, @Res() reply: FastifyReply): Promise<void> {
    const to = query.to === undefined ? new Date() : readAuditQuery({ to: query.to }).to;
    const from = query.from === undefined ? new Date(to.getTime() - 7 * DAY_MS) : readAuditQuery({ from: query.from, to: to.toISOString() }).from;
    if (to.getTime() - from.getTime() > 90 * DAY_MS) throw new ValidationFailedException([{ path: 'from', message: 'from must be at most 90 days before to' }]);
    const html = renderReport(await this.reports.gather(req.agent!.accountId, from, to));
    void reply.type('text/html; charset=utf-8').send(html);
  }
}

const DAY_MS = 86_400_000;
