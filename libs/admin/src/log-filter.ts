import type { LogCursor, LogFilter } from '#libs/ai-log';
import type { AiLogStatus } from '#libs/database';
import { ValidationFailedException } from '#libs/validation';
import { type ListLogsQueryDto, type LogFilterDto, parseInstant } from './log-query.dto.js';

/** Turns a validated filter into dates and IDs, checking what one field alone cannot: the window's order. */
export function toLogFilter(dto: LogFilterDto & Partial<ListLogsQueryDto>): LogFilter {
  const filter: LogFilter = {
    accountId: dto.accountId,
    receivedFrom: dto.from === undefined ? undefined : parseInstant(dto.from),
    receivedBefore: dto.to === undefined ? undefined : parseInstant(dto.to),
    errorContains: dto.error,
    model: dto.model,
    stage: dto.stage,
    orderId: dto.orderId === undefined ? undefined : BigInt(dto.orderId),
    explanationContains: dto.q,
  };
  if (dto.status !== undefined) filter.statuses = dto.status.split(',') as AiLogStatus[];
  if (filter.receivedFrom && filter.receivedBefore && filter.receivedFrom >= filter.receivedBefore) {
    throw new ValidationFailedException([{ path: 'to', message: 'to must be later than from' }]);
  }
  return filter;
}

export function encodeCursor(cursor: LogCursor): string {
  return Buffer.from(`${cursor.receivedAt.getTime()}.${cursor.id}`).toString('base64url');
}

export function decodeCursor(text: string): LogCursor {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) throw new ValidationFailedException([{ path: 'cursor', message: 'cursor must be the nextCursor of an earlier page' }]);
  return { receivedAt: new Date(Number(match[1])), id: match[2] };
}
