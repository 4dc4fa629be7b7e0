import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { isSimulatorPath, pathOf } from '../limits/operation-lookup.js';
import type { Clock } from '../sim-clock.js';
import type { SimState } from '../state/sim-state.js';
import { edgeAnswer } from './edge-reply.js';

/** What is left to do once the answer is ready. */
interface LatePlan {
  latencyMs: number;
  dropAfterProcess: boolean;
}

/**
 * Fault injection, first thing in the request lifecycle: decides each request outside `/__sim` once, answers 521,
 * 429 and 500 (or nothing, for a hang) at once, and delays or drops the others' answers once they are processed.
 */
export function installFaultHooks(app: NestFastifyApplication, state: SimState, clock: Clock): void {
  const fastify = app.getHttpAdapter().getInstance();
  const late = new WeakMap<IncomingMessage, LatePlan>();
  const hung = new Set<Socket>();

  fastify.addHook('onRequest', async (req, reply) => {
    if (isSimulatorPath(req.url)) return;
    const decision = state.faults.decide(pathOf(req.url), claimedUid(req, state));
    if (decision.latencyMs > 0 || decision.dropAfterProcess) late.set(req.raw, decision);
    if (decision.answer === undefined) return;
    state.faults.record(decision.answer);
    if (decision.answer === 'hang') return hang(req.raw.socket, hung);
    return edgeAnswer(decision, req, reply, { state, clock });
  });

  fastify.addHook('onSend', async (req, _reply, payload) => {
    const plan = late.get(req.raw);
    if (!plan) return payload;
    if (plan.latencyMs > 0) {
      state.faults.record('latency');
      await sleepAtLeast(plan.latencyMs);
    }
    if (plan.dropAfterProcess) {
      state.faults.record('droppedAfterProcess');
      req.raw.socket.destroy();
    }
    return payload;
  });

  // Hung requests keep their sockets busy, and the server would wait for them forever.
  fastify.addHook('preClose', async () => {
    for (const socket of hung) socket.destroy();
  });
}

/** Per-account faults go by the ACCESS-KEY header: the edge decides before the signature is checked. */
function claimedUid(req: FastifyRequest, state: SimState): string | undefined {
  const apiKey = req.headers['access-key'];
  return typeof apiKey === 'string' ? state.accountByApiKey(apiKey)?.uid : undefined;
}

function hang(socket: Socket, hung: Set<Socket>): Promise<never> {
  hung.add(socket);
  socket.once('close', () => hung.delete(socket));
  return new Promise<never>(() => {});
}

/** Timers may fire a little early by the wall clock; the delay is a promise of at least `ms`. */
async function sleepAtLeast(ms: number): Promise<void> {
  const until = performance.now() + ms;
  for (let left = ms; left > 0; left = until - performance.now()) await sleep(Math.ceil(left));
}
