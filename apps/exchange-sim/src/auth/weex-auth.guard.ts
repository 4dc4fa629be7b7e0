import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { SimState } from '../state/sim-state.js';
import { AI_LOG_ALLOWLIST_KEY, type SimRequest } from './auth.decorators.js';
import { WeexAuthService } from './weex-auth.service.js';

/**
 * Authenticates a signed WEEX request and attaches the result for `@Verified()`; failures throw a SimError. The
 * account's live orders are then brought up to now, so that every answer reflects the simulated price path.
 */
@Injectable()
export class WeexAuthGuard implements CanActivate {
  constructor(
    private readonly auth: WeexAuthService,
    private readonly reflector: Reflector,
    private readonly state: SimState,
    @Inject(SIM_CLOCK) private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<SimRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const aiLog = this.reflector.getAllAndOverride<boolean>(AI_LOG_ALLOWLIST_KEY, targets);
    req.simVerified = this.auth.verify(
      { method: req.method, url: req.url, headers: req.headers, rawBody: typeof req.body === 'string' ? req.body : '' },
      { aiLog: aiLog === true },
    );
    this.state.desk.advance(req.simVerified.account, this.clock());
    return true;
  }
}
