import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AdminAuthThrottle } from './admin-auth-throttle.js';
import { AdminThrottledException } from './admin-throttled.exception.js';
import { AdminTokenService } from './admin-token.service.js';
import { bearerToken } from './bearer-token.js';
import { clientAddress } from './client-address.js';
import { isConsoleAction } from './console-action.js';
import { ConsoleSessionService } from './console-session.service.js';

const digest = (text: string) => createHash('sha256').update(text).digest();
const WRONG_HEADER = 'Authorization header must be "Bearer <ADMIN_TOKEN>"';

/**
 * Admin endpoints take `Authorization: Bearer <ADMIN_TOKEN>`. The comparison is constant-time (over SHA-256 digests,
 * so that the token's length does not leak either). Without a token configured, admin endpoints refuse everyone.
 * The right token always passes and is never counted: only wrong ones are, per client address, and an address that
 * failed too often has its wrong tokens refused 429 (AdminAuthThrottle), so no one can lock the admin out. Without an
 * Authorization header, an admin's console session admits reads and ConsoleAction handlers too.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: AdminTokenService,
    private readonly throttle: AdminAuthThrottle,
    private readonly consoleSessions: ConsoleSessionService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session =
      request.headers.authorization === undefined ? await this.consoleSessions.admit(request, isConsoleAction(this.reflector, context)) : undefined;
    if (session?.role === 'admin') return true;
    if (session) throw new ForbiddenException(`a ${session.role} console session cannot use admin endpoints`);
    await this.verify(bearerToken(request.headers.authorization), clientAddress(request), WRONG_HEADER);
    return true;
  }

  /**
   * Admits the admin token presented from `address` (undefined: none was). A wrong token throws
   * AdminThrottledException while the address is refused, else is counted and throws UnauthorizedException with
   * `refusal` as its message. Also used by the dashboard's sign-in.
   */
  async verify(token: string | undefined, address: string, refusal: string): Promise<void> {
    const expected = this.tokens.token();
    if (!expected) throw new UnauthorizedException('admin endpoints are disabled: set ADMIN_TOKEN');
    if (token === undefined) throw new UnauthorizedException(refusal);
    if (timingSafeEqual(digest(token), digest(expected))) return;
    const waitMs = await this.throttle.blockedFor(address);
    if (waitMs !== undefined) throw new AdminThrottledException(waitMs);
    await this.throttle.fail(address);
    throw new UnauthorizedException(refusal);
  }
}
