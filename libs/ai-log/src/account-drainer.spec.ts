import type { GatewayConfig } from '#libs/config';
import type { AiLog } from '#libs/database';
import { BudgetWaitTooLong, type WeexClient } from '#libs/weex-client';
import { type WeexAccountClients } from '#libs/weex-nest';
import { AccountDrainer } from './account-drainer.js';
import type { AiLogUploader } from './ai-log-uploader.js';
import type { AiLogRepository, DuePosition } from './ai-log.repository.js';
import type { UploadLeases } from './upload-leases.js';
import type { UploadWakeups } from './upload-wakeups.js';

interface Script {
  /** Logs due now, in due order; each claim takes the first past the claim's `after`. */
  due?: string[];
  /** Sending the key's log makes the value's due. */
  arrivals?: Record<string, string>;
  paused?: boolean;
  /** When the next waiting log is due, after the run (null: none waits). */
  nextDueAt?: Array<Date | null>;
  /** The budget holds every take back this long. */
  budgetWaitMs?: number;
  credentials?: boolean;
  /** The budget's answers to the takes in turn ('held': granted once a later take is refused); then every take is granted. */
  takes?: Array<'grant' | 'refuse' | 'held'>;
}

const DUE_AT = new Date(0);

/** A drainer over a scripted account; `events` records, in order, what it asked of each part. */
function drainerOf(script: Script, concurrency = 3) {
  const events: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const due = [...(script.due ?? [])];
  const nextDue = [...(script.nextDueAt ?? [null])];
  const takes = [...(script.takes ?? [])];
  let refused = () => {};
  const refusal = new Promise<void>((resolve) => (refused = resolve));
  const client = {
    takeWeight: async () => {
      if (script.budgetWaitMs) throw new BudgetWaitTooLong('uploadAiLog', script.budgetWaitMs);
      const answer = takes.shift() ?? 'grant';
      if (answer === 'refuse') {
        events.push('refused');
        refused();
        throw new BudgetWaitTooLong('uploadAiLog', 2_000);
      }
      if (answer === 'held') await refusal;
      events.push('take');
      return { operation: 'uploadAiLog', giveBack: async () => void events.push('give back') };
    },
  } as unknown as WeexClient;
  const repository = {
    // Every log is due at the same instant, so the due order is the ids' order.
    claimNext: async (_account: string, _claimMs: number, after?: DuePosition) => {
      const at = script.paused ? -1 : due.findIndex((id) => !after || id > after.id);
      const id = at < 0 ? undefined : due.splice(at, 1)[0];
      events.push(`claim ${id ?? (script.paused ? 'paused' : 'none')}${after ? ` past ${after.id}` : ''}`);
      return { paused: script.paused === true, log: id ? ({ id, nextAttemptAt: DUE_AT } as AiLog) : null };
    },
    nextDueAt: async () => (nextDue.length > 1 ? nextDue.shift()! : nextDue[0]),
  } as unknown as AiLogRepository;
  const uploader = {
    send: async (log: AiLog) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      events.push(`send ${log.id}`);
      const arrival = script.arrivals?.[log.id];
      if (arrival) {
        due.push(arrival);
        due.sort();
      }
      return { status: 'uploaded' };
    },
  } as unknown as AiLogUploader;
  const clients = { resolve: async () => (script.credentials === false ? undefined : client) } as unknown as WeexAccountClients;
  const wakeups = { wake: async (ids: string[], delayMs = 0) => void events.push(`wake ${ids.join()} in ${delayMs}`) } as unknown as UploadWakeups;
  const config = { uploadConcurrency: concurrency, uploadClaimMs: 60_000, weexUploadApiVersion: 'v3' } as GatewayConfig;
  const leases = { whileHeld: (_log: AiLog, send: () => Promise<unknown>) => send() } as unknown as UploadLeases;
  const drainer = new AccountDrainer(repository, uploader, clients, wakeups, leases, config);
  return { drainer, events, mostInFlight: () => mostInFlight };
}

const never = new AbortController().signal;
const wakes = (events: string[]) => events.filter((e) => e.startsWith('wake'));

describe('AccountDrainer', () => {
  it('takes the weight before each claim, gives back the weight of a claim that found nothing and what it holds ahead, and stops there', async () => {
    const { drainer, events, mostInFlight } = drainerOf({ due: ['l1', 'l2', 'l3', 'l4', 'l5'] });
    expect(await drainer.drain('b', never)).toBe(5);
    expect(events.filter((e) => e.startsWith('send')).sort()).toEqual(['send l1', 'send l2', 'send l3', 'send l4', 'send l5']);
    // Each claim follows a take, or a claim past the run's last that found nothing (then it looks from the start).
    for (const [i, event] of events.entries()) if (event.startsWith('claim')) expect(events[i - 1]).toMatch(/^take$|^claim none past/);
    expect(events.filter((e) => e === 'give back')).toHaveLength(events.filter((e) => e === 'claim none').length);
    expect(mostInFlight()).toBe(3);
    expect(wakes(events)).toEqual([]);
  });

  it('starts one lane for a lone log, not all of them', async () => {
    const { drainer, events } = drainerOf({ due: ['l1'] });
    await drainer.drain('a', never);
    expect(events.filter((e) => e.startsWith('claim'))).toEqual(['claim l1', 'claim none past l1', 'claim none']);
  });

  it('claims past its last claim, and from the start when nothing is past it, so a log due earlier is not left behind', async () => {
    // l1, due before the run's last claim (a retry, a lapsed claim, a late commit), comes due while l2 is sent.
    const { drainer, events } = drainerOf({ due: ['l2', 'l3'], arrivals: { l2: 'l1' } }, 1);
    expect(await drainer.drain('a', never)).toBe(3);
    expect(events.filter((e) => e.startsWith('claim'))).toEqual([
      'claim l2',
      'claim l3 past l2',
      'claim none past l3',
      'claim l1',
      'claim none past l1',
      'claim none',
    ]);
  });

  it('wakes the account when its next retry is due, and at once if a log came due while it looked', async () => {
    const later = drainerOf({ due: ['l1'], nextDueAt: [new Date(Date.now() + 60_000)] });
    await later.drainer.drain('a', never);
    expect(wakes(later.events)).toEqual([expect.stringMatching(/^wake a in (59|60)\d\d\d$/)]);
    const raced = drainerOf({ due: ['l1'], nextDueAt: [new Date(Date.now() + 60_000), new Date(Date.now() - 1)] });
    await raced.drainer.drain('a', never);
    expect(wakes(raced.events)).toEqual([expect.stringMatching(/^wake a in (59|60)\d\d\d$/), 'wake a in 0']);
  });

  it('claims nothing while the budget holds it back, and wakes the account when it frees up', async () => {
    const { drainer, events } = drainerOf({ due: ['l1'], budgetWaitMs: 3_000 });
    expect(await drainer.drain('b', never)).toBe(0);
    expect(events).toEqual(['wake b in 3000']);
  });

  it('spends the weight a lane holds when another lane finds the budget spent, then wakes the account when it frees up', async () => {
    // Lane 1 sends l1 while lane 2 waits for its weight; lane 1's next take is refused, and then lane 2's weight comes.
    const { drainer, events } = drainerOf({ due: ['l1', 'l2', 'l3'], takes: ['grant', 'held', 'refuse'] }, 2);
    expect(await drainer.drain('b', never)).toBe(2);
    expect(events).toEqual(['take', 'claim l1', 'send l1', 'refused', 'take', 'claim l2 past l1', 'send l2', 'wake b in 2000']);
  });

  it('leaves a paused account asleep until it is resumed', async () => {
    const { drainer, events } = drainerOf({ due: ['l1'], paused: true });
    await drainer.drain('b', never);
    expect(events).toEqual(['take', 'claim paused', 'give back']);
  });

  it('on shutdown starts nothing more, and hands the account to another worker if it has logs due', async () => {
    const shutdown = new AbortController();
    shutdown.abort();
    const { drainer, events } = drainerOf({ due: ['l1'], nextDueAt: [new Date(Date.now() - 1)] });
    expect(await drainer.drain('b', shutdown.signal)).toBe(0);
    expect(events).toEqual(['wake b in 0']);
  });

  it('waits for credentials it cannot read only when the account has logs waiting', async () => {
    const waiting = drainerOf({ credentials: false, nextDueAt: [new Date(Date.now() - 1)] });
    await waiting.drainer.drain('new', never);
    expect(waiting.events).toEqual(['wake new in 10000']);
    const idle = drainerOf({ credentials: false });
    await idle.drainer.drain('new', never);
    expect(idle.events).toEqual([]);
  });
});
