import { Injectable } from '@nestjs/common';
import { GENESIS_HASH } from '#libs/audit-chain';
import { GroupCommit } from '#libs/common';
import { type Prisma, PrismaService } from '#libs/database';
import { type ModelCallLink, modelCallHash } from './model-call-chain.js';

/** A call to record: its link's fields but the chain's, and its bodies. */
export type NewModelCall = Omit<ModelCallLink, 'seq'> & {
  requestBody: string;
  responseBody: string;
  /** `utf8`: responseBody is the answer's text; `base64`: its bytes, which were not text. */
  responseEncoding: string;
};

/** A recorded call: its link, chained, and (for one call) its bodies. */
export type StoredModelCall = ModelCallLink & { prevHash: string; hash: string };
export type StoredModelCallWithBodies = StoredModelCall & Pick<NewModelCall, 'requestBody' | 'responseBody' | 'responseEncoding'>;

/** The owner of `model_calls`: every read and write of the table goes through here. */
@Injectable()
export class ModelCallsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Commits calls as the next links of their accounts' chains, those of concurrent requests together (group commit):
   * one transaction takes each account's turn (a transaction-scoped advisory lock, so that processes take turns too),
   * reads its head, and inserts the calls after it. An insert per call that retried on the unique (account_id, seq)
   * spent 40 ms at p50 with 5 agents calling at once, and one lock per call queued them (bench: llm).
   */
  private readonly commits = new GroupCommit<NewModelCall, StoredModelCall>((calls) => this.write(calls), 200);

  /** Commits the call as the next link of its account's chain; resolves once it has committed. */
  async append(call: NewModelCall): Promise<StoredModelCall> {
    const [stored] = await this.commits.submit([call]);
    return stored;
  }

  private write(calls: NewModelCall[]): Promise<StoredModelCall[]> {
    return this.prisma.$transaction(async (tx) => {
      const heads = new Map<string, { seq: bigint; hash: string }>();
      for (const accountId of [...new Set(calls.map((call) => call.accountId))].sort()) {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`model_calls:${accountId}`}, 0))`;
        const last = await tx.modelCall.findFirst({ where: { accountId }, orderBy: { seq: 'desc' }, select: { seq: true, hash: true } });
        heads.set(accountId, { seq: last?.seq ?? 0n, hash: last?.hash ?? GENESIS_HASH });
      }
      const stored: StoredModelCall[] = [];
      const rows: Prisma.ModelCallCreateManyInput[] = calls.map((call) => {
        const { requestBody, responseBody, responseEncoding, ...fields } = call;
        const head = heads.get(call.accountId)!;
        const seq = head.seq + 1n;
        const link: ModelCallLink = { ...fields, seq: seq.toString() };
        const hash = modelCallHash(head.hash, link);
        stored.push({ ...link, prevHash: head.hash, hash });
        heads.set(call.accountId, { seq, hash });
        return {
          ...fields,
          startedAt: new Date(fields.startedAt),
          firstByteAt: fields.firstByteAt === null ? null : new Date(fields.firstByteAt),
          finishedAt: new Date(fields.finishedAt),
          requestBody,
          responseBody,
          responseEncoding,
          seq,
          prevHash: head.hash,
          hash,
        };
      });
      await tx.modelCall.createMany({ data: rows });
      return stored;
    });
  }

  /** One page of the account's calls, newest (highest seq) first, below `beforeSeq` when given; without bodies. */
  async page(accountId: string, limit: number, beforeSeq?: bigint): Promise<StoredModelCall[]> {
    const rows = await this.prisma.modelCall.findMany({
      where: { accountId, ...(beforeSeq === undefined ? {} : { seq: { lt: beforeSeq } }) },
      orderBy: { seq: 'desc' },
      take: limit,
      omit: { requestBody: true, responseBody: true, responseEncoding: true },
    });
    return rows.map(toStored);
  }

  /** The account's calls among `ids`, with their bodies: those of other accounts, or none, are left out. */
  async findMany(accountId: string, ids: string[]): Promise<StoredModelCallWithBodies[]> {
    const rows = await this.prisma.modelCall.findMany({ where: { accountId, id: { in: ids } } });
    return rows.map((row) => ({ ...toStored(row), requestBody: row.requestBody, responseBody: row.responseBody, responseEncoding: row.responseEncoding }));
  }

  async find(accountId: string, id: string): Promise<StoredModelCallWithBodies | undefined> {
    const row = await this.prisma.modelCall.findFirst({ where: { id, accountId } });
    return row ? { ...toStored(row), requestBody: row.requestBody, responseBody: row.responseBody, responseEncoding: row.responseEncoding } : undefined;
  }
}

type Row = Omit<Prisma.ModelCallGetPayload<object>, 'requestBody' | 'responseBody' | 'responseEncoding'>;

function toStored(row: Row): StoredModelCall {
  return {
    id: row.id,
    accountId: row.accountId,
    seq: row.seq.toString(),
    agentKeyId: row.agentKeyId,
    method: row.method,
    path: row.path,
    upstreamUrl: row.upstreamUrl,
    requestedModel: row.requestedModel,
    answeredModel: row.answeredModel,
    responseId: row.responseId,
    httpStatus: row.httpStatus,
    outcome: row.outcome,
    error: row.error,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    totalTokens: row.totalTokens,
    startedAt: row.startedAt.toISOString(),
    firstByteAt: row.firstByteAt?.toISOString() ?? null,
    finishedAt: row.finishedAt.toISOString(),
    requestSha256: row.requestSha256,
    responseSha256: row.responseSha256,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}
