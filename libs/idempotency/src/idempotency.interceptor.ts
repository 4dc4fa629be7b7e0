import { createHash } from 'node:crypto';
import {
  BadRequestException,
  type CallHandler,
  ConflictException,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UnprocessableEntityException,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { parseJson, stringifyJson } from '#libs/common';
import { IdempotencyRepository } from './idempotency.repository.js';

/** How long a request may hold its key before a retry may take it over. */
const LOCK_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface AuthenticatedRequest extends FastifyRequest {
  agent?: { agentKeyId: string };
}

/**
 * `Idempotency-Key`, scoped to the agent key: the same key with the same request returns the first answer and runs
 * nothing; with a different request it gets 422; while the first is still running, 409. Only successful answers are
 * kept: a request that failed created nothing, so its key is freed and a retry (or a corrected request) runs.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly repository: IdempotencyRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.agent) return next.handle();
    return from(this.run(context, request, String(key), next));
  }

  private async run(context: ExecutionContext, request: AuthenticatedRequest, key: string, next: CallHandler): Promise<unknown> {
    if (!KEY_PATTERN.test(key)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces');
    }
    const agentKeyId = request.agent!.agentKeyId;
    const hash = createHash('sha256').update(`${request.method} ${request.url}\n${stringifyJson(request.body ?? null)}`).digest('hex');
    const reservation = await this.repository.reserve(agentKeyId, key, hash, LOCK_MS);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    switch (reservation.kind) {
      case 'mismatch':
        throw new UnprocessableEntityException('Idempotency-Key was already used with a different request');
      case 'in_flight':
        throw new ConflictException('a request with this Idempotency-Key is still being processed; retry later');
      case 'replay':
        void reply.status(reservation.status).header('idempotent-replayed', 'true');
        return parseJson(reservation.body);
    }
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      await this.repository.release(agentKeyId, key);
      throw error;
    }
    // Nest applies @HttpCode when it sends the answer, after this interceptor; read the status it will use.
    const status = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? 200;
    await this.repository.complete(agentKeyId, key, status, stringifyJson(result ?? null));
    return result;
  }
}
