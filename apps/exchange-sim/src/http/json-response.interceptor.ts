import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';
import { stringifyJson } from '#libs/common';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Writes every handler result with the lossless serializer, so 64-bit integers keep all their digits. */
@Injectable()
export class JsonResponseInterceptor implements NestInterceptor<unknown, string> {
  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<string> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((value) => {
        reply.header('content-type', JSON_CONTENT_TYPE);
        return stringifyJson(value);
      }),
    );
  }
}
