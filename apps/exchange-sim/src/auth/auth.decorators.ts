import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { VerifiedRequest } from './verified-request.js';

export const AI_LOG_ALLOWLIST_KEY = 'sim:aiLogAllowlist';

/** The route is open only to UIDs on the AI-log allowlist (checked after the signature). */
export const RequireAiLogAllowlist = () => SetMetadata(AI_LOG_ALLOWLIST_KEY, true);

/** A Fastify request after {@link WeexAuthGuard} accepted it. */
export type SimRequest = FastifyRequest & { simVerified?: VerifiedRequest };

/** Injects the {@link VerifiedRequest} the guard attached. */
export const Verified = createParamDecorator((_data: unknown, ctx: ExecutionContext): VerifiedRequest => {
  const verified = ctx.switchToHttp().getRequest<SimRequest>().simVerified;
  if (!verified) throw new Error('@Verified() used on a route without WeexAuthGuard');
  return verified;
});
