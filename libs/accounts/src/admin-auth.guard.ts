import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AdminTokenService } from './admin-token.service.js';
import { bearerToken } from './bearer-token.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Admin endpoints take `Authorization: Bearer <ADMIN_TOKEN>`. The comparison is constant-time (over SHA-256 digests,
 * so that the token's length does not leak either). Without a token configured, admin endpoints refuse everyone.
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(private readonly tokens: AdminTokenService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    const expected = this.tokens.token();
    if (!expected) throw new UnauthorizedException('admin endpoints are disabled: set ADMIN_TOKEN');
    if (!this.matches(request.headers.authorization, expected)) {
      throw new UnauthorizedException('Authorization header must be "Bearer <ADMIN_TOKEN>"');
    }
    return true;
  }

  /** Also used by pages that sign in with a cookie instead of a header. */
  matches(header: string | string[] | undefined, expected = this.tokens.token()): boolean {
    const token = bearerToken(header);
    return token !== undefined && !!expected && timingSafeEqual(digest(token), digest(expected));
  }
}
