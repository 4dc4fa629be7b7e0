import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictException } from '@nestjs/common';
import type { GatewayConfig } from '#libs/config';
import { type BudgetUsage, BudgetWaitTooLong, type CallOptions, WeexApiError, type WeexClient } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { ExchangeCallService } from './exchange-call.service.js';
import { ExchangeRateLimitError } from './exchange-rate-limit.error.js';

const TIMEOUT_MS = 100;
const free = (): BudgetUsage => ({
  ip: { limit: 500, used: 0, msBeforeReset: 5_000, pausedMs: 0 },
  uid: { limit: 500, used: 0, msBeforeReset: 5_000, pausedMs: 0 },
});

/** A service over one fake client whose budget reports `usage`; the call functions stand in for the client. */
function setup() {
  const usage = free();
  const client = { budget: { usage: async () => structuredClone(usage) } } as unknown as WeexClient;
  const service = new ExchangeCallService(new WeexAccountClients(() => client, 'default', client), { weexTimeoutMs: TIMEOUT_MS } as GatewayConfig);
  return { usage, service };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
/** Like the client's budget wait: a sleep cut short by the signal (an AbortError caused by its reason). */
const waitForBudget = (_c: WeexClient, o: CallOptions) => sleep(60_000, undefined, { signal: o.signal });
/** Like a request in flight: the client rethrows the signal's reason. */
const inFlight = (_c: WeexClient, o: CallOptions) => new Promise((_resolve, reject) => o.signal!.addEventListener('abort', () => reject(o.signal!.reason)));

describe('ExchangeCallService', () => {
  it('answers 409 for an account without exchange credentials', async () => {
    const { service } = setup();
    const error = await failure(service.run('other', 'allPositions', async () => 'never'));
    expect(error).toBeInstanceOf(ConflictException);
    expect((error as ConflictException).getResponse()).toMatchObject({ code: 'NO_EXCHANGE_CREDENTIALS' });
  });

  it('bounds the budget wait by WEEX_TIMEOUT_MS, and answers the client’s refusal with 429 and its wait', async () => {
    const { service } = setup();
    let asked: number | undefined;
    const error = await failure(
      service.run('default', 'allPositions', async (_c, o) => {
        asked = o.maxBudgetWaitMs;
        throw new BudgetWaitTooLong('allPositions', 5_000);
      }),
    );
    expect(asked).toBe(TIMEOUT_MS);
    expect(error).toBeInstanceOf(ExchangeRateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 5_000, operation: 'allPositions' });
  });

  it('a write cut while waiting for budget: 429, nothing was sent', async () => {
    const { service } = setup();
    expect(await failure(service.run('default', 'cancelBatchOrders', waitForBudget))).toBeInstanceOf(ExchangeRateLimitError);
  });

  it('a write cut in flight: 504-worthy uncertain, never "nothing happened"', async () => {
    const { service } = setup();
    expect(await failure(service.run('default', 'cancelPlan', inFlight))).toMatchObject({ kind: 'uncertain', operation: 'cancelPlan' });
  });

  it('a read cut short: 429 while the budget is tight, else a timeout', async () => {
    const tight = setup();
    const read = (c: WeexClient, o: CallOptions) => {
      tight.usage.uid.pausedMs = 3_000;
      return inFlight(c, o);
    };
    expect(await failure(tight.service.run('default', 'openOrders', read))).toMatchObject({ retryAfterMs: 3_000 });
    const { service } = setup();
    expect(await failure(service.run('default', 'openOrders', inFlight))).toMatchObject({ kind: 'uncertain' });
  });

  it('turns the exchange’s 429 into a Retry-After from the budget pause, and passes other errors on as they are', async () => {
    const { usage, service } = setup();
    const limited = new WeexApiError('rate_limited', 'income', 'slow down', { httpStatus: 429 });
    const error = await failure(
      service.run('default', 'income', async () => {
        usage.uid.pausedMs = 2_000;
        throw limited;
      }),
    );
    expect(error).toMatchObject({ retryAfterMs: 2_000, exchangeError: limited });
    usage.uid.pausedMs = 0;
    const rejected = new WeexApiError('invalid_request', 'income', 'bad', { httpStatus: 400, code: '-1140' });
    expect(await failure(service.run('default', 'income', async () => Promise.reject(rejected)))).toBe(rejected);
  });

  it('tries once more with the new client when the account’s credentials were rotated meanwhile', async () => {
    const fake = () => ({ budget: { usage: async () => free() } }) as unknown as WeexClient;
    const [first, second] = [fake(), fake()];
    const built = [first, second];
    const clients = new WeexAccountClients(() => built.shift()!, 'default', fake());
    const settings = (secret: string) => ({ credentials: { apiKey: 'team-b-key', secret, passphrase: 'p' } });
    clients.register('team-b', settings('old'));
    clients.setReload(async () => clients.register('team-b', settings('new')));
    const service = new ExchangeCallService(clients, { weexTimeoutMs: TIMEOUT_MS } as GatewayConfig);
    const used: WeexClient[] = [];
    const answer = await service.run('team-b', 'cancelPlan', async (client) => {
      used.push(client);
      if (client === first) throw new WeexApiError('auth', 'cancelPlan', 'bad signature', { httpStatus: 401, code: '40009' });
      return 'cancelled';
    });
    expect(answer).toBe('cancelled');
    expect(used).toEqual([first, second]);
  });
});
