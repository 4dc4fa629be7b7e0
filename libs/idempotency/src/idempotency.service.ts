import { createHash } from 'node:crypto';
import { BadRequestException, HttpException, Injectable } from '@nestjs/common';
import { parseJson, stringifyJson } from '#libs/common';
import { IdempotencyKeyTakenError } from './idempotency-key-taken.error.js';
import { type IdempotencyClaim, IdempotencyRepository, type KeyOutcome } from './idempotency.repository.js';

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
 * nothing; with a different request it gets 422; while the first is still running in this process, 409.
 *
 * Nothing is written before the request's effects: the work records the key's answer in the transaction that commits
 * them (IdempotencyRepository.recordWithin), so that a crash at any point leaves either both or neither, and a retry
 * after it either gets the first answer or runs afresh, never blocked. Concurrent requests with one key are told
 * apart by an in-process set here, and across processes by the table's unique key: the one whose transaction loses
 * stores nothing and gets the winner's answer. A request that stored nothing (a 400) leaves its key free.
 *
 * A handler calls `run` rather than this being an interceptor: any interceptor puts Nest's RxJS pipeline on the
 * route, which cost ingest about a twentieth of its CPU although most requests carry no key.
 */
@Injectable()
export class IdempotencyService {
  /** Keys of this process's requests in flight, `<agent key id>\n<key>`. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly repository: IdempotencyRepository) {}

  /**
   * Runs `work` once per Idempotency-Key (at once, without a claim, when the request has none); `status` is the
   * handler's success code. `work` must record the claim with its effects, in their transaction, or throw
   * IdempotencyKeyTakenError when another request had recorded it; if it stores nothing, it need not record it.
   */
  run<T>(request: IdempotentRequest, reply: IdempotentReply, status: number, work: (claim?: IdempotencyClaim) => Promise<T>): Promise<T> {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.agent) return work();
    return this.runOnce(request, reply, status, String(key), work);
  }

  private async runOnce<T>(
    request: IdempotentRequest,
    reply: IdempotentReply,
    status: number,
    key: string,
    work: (claim: IdempotencyClaim) => Promise<T>,
  ): Promise<T> {
    if (!KEY_PATTERN.test(key)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces');
    }
    const agentKeyId = request.agent!.agentKeyId;
    const id = `${agentKeyId}\n${key}`;
    if (this.inFlight.has(id)) throw inUse();
    this.inFlight.add(id);
    try {
      const requestHash = createHash('sha256')
        .update(`${request.method} ${request.url}\n${stringifyJson(request.body ?? null)}`)
        .digest('hex');
      const recorded = await this.repository.find(agentKeyId, key);
      if (recorded) return replay<T>(recorded, requestHash, reply);
      try {
        return await work({ agentKeyId, key, requestHash, status });
      } catch (error) {
        if (!(error instanceof IdempotencyKeyTakenError)) throw error;
        // Another process's request with this key committed first; this one stored nothing.
        const winner = await this.repository.find(agentKeyId, key);
        if (!winner) throw inUse();
        return replay<T>(winner, requestHash, reply);
      }
    } finally {
      this.inFlight.delete(id);
    }
  }
}

function replay<T>(recorded: KeyOutcome, requestHash: string, reply: IdempotentReply): T {
  if (recorded.requestHash !== requestHash) {
    throw new HttpException({ code: 'IDEMPOTENCY_KEY_REUSED', message: 'this Idempotency-Key was used with a different request' }, 422);
  }
  reply.status(recorded.status).header('idempotent-replayed', 'true');
  return parseJson(recorded.body) as T;
}

const inUse = () => new HttpException({ code: 'IDEMPOTENCY_KEY_IN_USE', message: 'a request with this Idempotency-Key is still in flight; retry later' }, 409);
