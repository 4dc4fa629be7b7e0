import { createHash } from 'node:crypto';
import { HttpException, Injectable } from '@nestjs/common';
import { parseJson, stringifyJson } from '#libs/common';
import { ValidationFailedException } from '#libs/validation';
import { IdempotencyKeyInUseException } from './idempotency-key-in-use.exception.js';
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
 * `Idempotency-Key`, scoped to the agent key: once a request with the key committed, every retry with the same request
 * gets its answer and runs nothing, however many come at once; with a different request, 422. While the first is
 * still running in this process, 409 with Retry-After: the recorded key is looked up first, so only then.
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
      // Named as a field, like the answer to a repeated Idempotency-Key header (repeated-headers.ts).
      throw new ValidationFailedException([{ path: 'idempotency-key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces' }]);
    }
    const agentKeyId = request.agent!.agentKeyId;
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${stringifyJson(request.body ?? null)}`)
      .digest('hex');
    // A key whose request committed is replayed to every retry, however many come at once.
    const recorded = await this.repository.find(agentKeyId, key);
    if (recorded) return replay<T>(recorded, requestHash, reply);
    const id = `${agentKeyId}\n${key}`;
    if (this.inFlight.has(id)) throw new IdempotencyKeyInUseException();
    this.inFlight.add(id);
    try {
      return await work({ agentKeyId, key, requestHash, status });
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError)) throw error;
      // Another process's request with this key committed first; this one stored nothing.
      const winner = await this.repository.find(agentKeyId, key);
      // Only if its row went in between, which nothing does to a fresh one: a retry then runs afresh.
      if (!winner) throw new IdempotencyKeyInUseException();
      return replay<T>(winner, requestHash, reply);
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
