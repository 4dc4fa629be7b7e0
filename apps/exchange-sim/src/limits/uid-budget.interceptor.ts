import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { SimRequest } from '../auth/auth.decorators.js';
import { SimError, SimFailure } from '../errors.js';
import { SimState } from '../state/sim-state.js';
import { chargeOf } from './request-charge.js';

/**
 * Charges the UID weight once the account is known: interceptors run after the auth guard. A refused request takes
 * back its IP charge too, so a 429 costs nothing.
 */
@Injectable()
export class UidBudgetInterceptor implements NestInterceptor {
  constructor(private readonly state: SimState) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<SimRequest>();
    const charge = chargeOf(req.raw);
    const uid = req.simVerified?.account.uid;
    if (charge && uid !== undefined && !this.state.budgets.tryCharge('uid', uid, charge.operation.uidWeight)) {
      this.state.budgets.refund('ip', charge.ip, charge.operation.ipWeight);
      throw new SimError(SimFailure.RateLimited, `UID ${uid} is over its request weight budget`);
    }
    return next.handle();
  }
}
