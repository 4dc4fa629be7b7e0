import { Injectable, NotFoundException } from '@nestjs/common';
import { ValidationFailedException } from '#libs/validation';
import { DEFAULT_MODEL_CALL_PAGE, type ListModelCallsQueryDto } from './model-calls-query.dto.js';
import { type ModelCallSummary, type ModelCallView, toModelCallSummary, toModelCallView } from './model-call.view.js';
import { ModelCallsRepository } from './model-calls.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an agent reads of its account's model calls. */
@Injectable()
export class ModelCallsService {
  constructor(private readonly calls: ModelCallsRepository) {}

  /** Newest first, keyset-paged by the account's chain position: a page never repeats or skips a call. */
  async list(accountId: string, query: ListModelCallsQueryDto): Promise<{ data: ModelCallSummary[]; nextCursor: string | null }> {
    const limit = query.limit ?? DEFAULT_MODEL_CALL_PAGE;
    const rows = await this.calls.page(accountId, limit + 1, query.cursor === undefined ? undefined : decodeCursor(query.cursor));
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { data: page.map(toModelCallSummary), nextCursor: rows.length > limit && last ? encodeCursor(BigInt(last.seq)) : null };
  }

  async get(accountId: string, id: string): Promise<ModelCallView> {
    const call = UUID.test(id) ? await this.calls.find(accountId, id.toLowerCase()) : undefined;
    if (!call) throw new NotFoundException({ code: 'NOT_FOUND', message: `no model call ${id} for this account` });
    return toModelCallView(call);
  }
}

/** A page's cursor: the seq of its last call, opaque (base64url) as GET /admin/logs's. */
const encodeCursor = (seq: bigint): string => Buffer.from(`seq.${seq}`).toString('base64url');

function decodeCursor(text: string): bigint {
  const match = /^seq\.(\d{1,19})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) throw new ValidationFailedException([{ path: 'cursor', message: 'cursor must be the nextCursor of an earlier page' }]);
  return BigInt(match[1]);
}
