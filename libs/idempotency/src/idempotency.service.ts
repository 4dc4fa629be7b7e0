import { createHash } from 'node:crypto';
import { BadRequestException, ConflictException, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { parseJson, stringifyJson } from '#libs/common';
import { IdempotencyRepository } from './idempotency.repository.js';

/** How long a request may hold its key before a retry may take it over. */
const LOCK_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What `run` needs of the request and reply (Fastify's, as Nest hands them to a handler). */
export interface IdempotentRequest {
  method: string;
  url: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  agent?: { agentKeyId: string };
}
export interface IdempotentReply {
  status(code: number): IdempotentReply;
  header(name: string, value: string): IdempotentReply;
}

/**
 * `Idempotency-Key`, scoped to the agent key: the same key with the same request returns the first answer and runs
 * nothing; with a different request it gets 422; while the first is still running, 409. Only successful answers are
 * kept: a request that failed created nothing, so its key is freed and a retry (or a corrected request) runs.
 *
 * A handler calls `run` rather than this being an interceptor: any interceptor puts Nest's RxJS pipeline on the
 * route, which cost ingest about a twentieth of its CPU although most requests carry no key.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly repository: IdempotencyRepository) {}

  /** Runs `work` once per Idempotency-Key (at once when the request has none); `status` is the handler's success code. */
  run<T>(request: IdempotentRequest, reply: IdempotentReply, status: number, work: () => Promise<T>): Promise<T> {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.agent) return work();
    return this.runOnce(request, reply, status, String(key), work);
  }

  private async runOnce<T>(request: IdempotentRequest, reply: IdempotentReply, status: number, key: string, work: () => Promise<T>): Promise<T> {
    if (!KEY_PATTERN.test(key)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces');
    }
    const agentKeyId = request.agent!.agentKeyId;
    const hash = createHash('sha256').update(`${request.method} ${request.url}\n${stringifyJson(request.body ?? null)}`).digest('hex');
    const reservation = await this.repository.reserve(agentKeyId, key, hash, LOCK_MS);
    switch (reservation.kind) {
      case 'mismatch':
        throw new UnprocessableEntityException('Idempotency-Key was already used with a different request');
      case 'in_flight':
        throw new ConflictException('a request with this Idempotency-Key is still being processed; retry later');
      case 'replay':
        reply.status(reservation.status).header('idempotent-replayed', 'true');
        return parseJson(reservation.body) as T;
    }
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await this.repository.release(agentKeyId, key);
      throw error;
    }
    await this.repository.complete(agentKeyId, key, status, stringifyJson(result ?? null));
    return result;
  }
}
