import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { SimRequest } from '../auth/auth.decorators.js';
import { SimFailure } from '../errors.js';
import { sendEdgeError } from '../faults/edge-reply.js';
import type { Clock } from '../sim-clock.js';
import type { SimState } from '../state/sim-state.js';
import { clientIpOf } from './client-ip.js';
import { findOperation, isSimulatorPath } from './operation-lookup.js';
import { rememberCharge } from './request-charge.js';
import { UidBudgetInterceptor } from './uid-budget.interceptor.js';

/** Simulator-specific (WEEX is only said to send `X-USED-WEIGHT-1M`-style headers [L]): weight used in this window. */
export const IP_USED_WEIGHT_HEADER = 'X-Weex-Used-Weight-Ip';
export const UID_USED_WEIGHT_HEADER = 'X-Weex-Used-Weight-Uid';

/**
 * Weight budgets: the IP weight is charged at the edge, before authentication (so a request that then fails
 * authentication still costs its IP weight), the UID weight after it by {@link UidBudgetInterceptor}. Paths outside
 * `OPERATIONS` cost nothing. Every answer outside `/__sim` carries the weight used in the current window.
 */
export function installBudgetHooks(app: NestFastifyApplication, state: SimState, clock: Clock): void {
  const fastify = app.getHttpAdapter().getInstance();

  fastify.addHook('onRequest', async (req, reply) => {
    if (isSimulatorPath(req.url)) return;
    const operation = findOperation(req.method, req.url);
    if (!operation) return;
    const ip = clientIpOf(req);
    if (!state.budgets.tryCharge('ip', ip, operation.ipWeight)) {
      return sendEdgeError(req, reply, SimFailure.RateLimited, `IP ${ip} is over its request weight budget`, {
        state,
        clock,
      });
    }
    rememberCharge(req.raw, { ip, operation });
  });

  fastify.addHook('onSend', async (req, reply, payload) => {
    if (isSimulatorPath(req.url)) return payload;
    reply.header(IP_USED_WEIGHT_HEADER, String(state.budgets.usedNow('ip', clientIpOf(req))));
    const uid = (req as SimRequest).simVerified?.account.uid;
    if (uid !== undefined) reply.header(UID_USED_WEIGHT_HEADER, String(state.budgets.usedNow('uid', uid)));
    return payload;
  });

  app.useGlobalInterceptors(new UidBudgetInterceptor(state));
}
