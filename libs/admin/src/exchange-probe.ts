import { Injectable } from '@nestjs/common';
import { WeexClient } from '#libs/weex-client';

const PROBE_TIMEOUT_MS = 2_000;
const CACHE_MS = 10_000;

export interface ExchangeReachability {
  reachable: boolean;
  /** The exchange's base URL (the simulator in sandbox mode). */
  url: string;
  latencyMs: number;
  /** The exchange's clock minus ours, estimated from this round trip. */
  offsetMs?: number;
  error?: string;
  checkedAt: string;
}

/**
 * One server-time round trip through the client (so it spends budget like any call): the exchange's clock minus
 * ours, assuming the exchange read its clock halfway through. Also the answer's latency.
 */
export async function measureClock(client: WeexClient, timeoutMs: number): Promise<{ offsetMs: number; latencyMs: number }> {
  const started = Date.now();
  const { serverTime } = await client.serverTime({ signal: AbortSignal.timeout(timeoutMs) });
  const finished = Date.now();
  return { offsetMs: serverTime - Math.round((started + finished) / 2), latencyMs: finished - started };
}

/**
 * The exchange's clock minus ours, in ms: as the account's client last measured it for signing, or else estimated now
 * from one server-time call; null without an answer.
 */
export async function clockOffsetOf(client: WeexClient, timeoutMs: number): Promise<number | null> {
  if (client.transport.clockOffsetMs !== undefined) return client.transport.clockOffsetMs;
  // This process has signed nothing for the account yet (the worker may have, in its own process).
  return measureClock(client, timeoutMs).then(
    (clock) => clock.offsetMs,
    () => null,
  );
}

/**
 * Whether the exchange answers: server time through the default account's client (1 IP weight from its budget), with
 * a short timeout, at most once per CACHE_MS however often health is asked. Information only: an exchange outage
 * does not make the gateway unready, since it still accepts and keeps logs.
 */
@Injectable()
export class ExchangeProbe {
  private last?: { at: number; result: ExchangeReachability };
  private running?: Promise<ExchangeReachability>;

  constructor(private readonly client: WeexClient) {}

  check(): Promise<ExchangeReachability> {
    if (this.last && Date.now() - this.last.at < CACHE_MS) return Promise.resolve(this.last.result);
    this.running ??= this.probe().finally(() => (this.running = undefined));
    return this.running;
  }

  private async probe(): Promise<ExchangeReachability> {
    const started = Date.now();
    const url = this.client.transport.baseUrl;
    let result: ExchangeReachability;
    try {
      const { offsetMs, latencyMs } = await measureClock(this.client, PROBE_TIMEOUT_MS);
      result = { reachable: true, url, latencyMs, offsetMs, checkedAt: new Date().toISOString() };
    } catch (error) {
      result = { reachable: false, url, latencyMs: Date.now() - started, error: (error as Error).message, checkedAt: new Date().toISOString() };
    }
    this.last = { at: Date.now(), result };
    return result;
  }
}
