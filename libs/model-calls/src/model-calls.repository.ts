import { Injectable } from '@nestjs/common';
import { GENESIS_HASH } from '#libs/audit-chain';
import { Prisma, PrismaService } from '#libs/database';
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

/** How many times an append starts over after another call of the account took the seq it meant to use. */
const APPEND_TRIES = 100;

/** The owner of `model_calls`: every read and write of the table goes through here. */
@Injectable()
export class ModelCallsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Commits the call as the next link of its account's chain. Optimistic: it reads the last link and inserts the next
   * one; when another call of the account committed that seq first, the unique (account_id, seq) refuses the insert,
   * and it reads again. Calls of one account rarely end in the same instant, and no lock is held across statements.
   */
  async append(call: NewModelCall): Promise<StoredModelCall> {
    const { requestBody, responseBody, responseEncoding, ...fields } = call;
    for (let tries = 1; ; tries++) {
      const last = await this.prisma.modelCall.findFirst({ where: { accountId: call.accountId }, orderBy: { seq: 'desc' }, select: { seq: true, hash: true } });
      const seq = (last?.seq ?? 0n) + 1n;
      const prevHash = last?.hash ?? GENESIS_HASH;
      const link: ModelCallLink = { ...fields, seq: seq.toString() };
      const hash = modelCallHash(prevHash, link);
      try {
        await this.prisma.modelCall.create({
          data: {
            ...fields,
            startedAt: new Date(fields.startedAt),
            firstByteAt: fields.firstByteAt === null ? null : new Date(fields.firstByteAt),
            finishedAt: new Date(fields.finishedAt),
            requestBody,
            responseBody,
            responseEncoding,
            seq,
            prevHash,
            hash,
          },
        });
        return { ...link, prevHash, hash };
      } catch (error) {
        const taken = error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
        if (!taken || tries === APPEND_TRIES) throw error;
      }
    }
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
