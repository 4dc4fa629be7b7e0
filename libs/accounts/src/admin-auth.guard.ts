import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminAuthThrottle } from './admin-auth-throttle.js';
import { AdminThrottledException } from './admin-throttled.exception.js';
import { AdminTokenService } from './admin-token.service.js';
import { bearerToken } from './bearer-token.js';

const digest = (text: string) => createHash('sha256').update(text).digest();
const WRONG_HEADER = 'Authorization header must be "Bearer <ADMIN_TOKEN>"';

/**
 * Admin endpoints take `Authorization: Bearer <ADMIN_TOKEN>`. The comparison is constant-time (over SHA-256 digests,
 * so that the token's length does not leak either). Without a token configured, admin endpoints refuse everyone.
 * Wrong tokens are counted per client address, and an address that failed too often gets 429 (AdminAuthThrottle).
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: AdminTokenService,
    private readonly throttle: AdminAuthThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.verify(bearerToken(request.headers.authorization), request.ip, WRONG_HEADER);
    return true;
  }

  /**
   * Admits the admin token presented from `address` (undefined: none was). Throws UnauthorizedException with
   * `refusal` as its message, or AdminThrottledException while the address is refused; a wrong token is counted.
   * Also used by the dashboard's sign-in.
   */
  async verify(token: string | undefined, address: string, refusal: string): Promise<void> {
    const expected = this.tokens.token();
    if (!expected) throw new UnauthorizedException('admin endpoints are disabled: set ADMIN_TOKEN');
    if (token === undefined) throw new UnauthorizedException(refusal);
    const waitMs = await this.throttle.blockedFor(address);
    if (waitMs !== undefined) throw new AdminThrottledException(waitMs);
    if (timingSafeEqual(digest(token), digest(expected))) return;
    await this.throttle.fail(address);
    throw new UnauthorizedException(refusal);
  }
}
