import { NotFoundException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AccountPausesRepository } from '#libs/accounts';
import { AdminLogsRepository, AiLogRepository, LogStatsRepository } from '#libs/ai-log';
import { EvidenceService } from '#libs/evidence';
import { WeexAccountClients } from '#libs/weex-nest';
import { AccountOperationsService } from './account-operations.service.js';
import { DueLogsQueue } from './due-logs-queue.js';

// Pausing and resuming, decided in a Nest testing module: the repositories and the queue are stand-ins that record what
// they are asked (test/admin.e2e-spec.ts runs the same against PostgreSQL and a worker).
const PAUSED_AT = new Date('2026-11-26T10:00:00.000Z');

async function service(rows: Record<string, { uploadsPausedAt: Date | null; uploadsPauseReason: string | null }>) {
  const calls = { broughtForward: [] as string[], woken: [] as string[][] };
  const accounts = {
    find: async (id: string) => rows[id],
    setPaused: async (id: string, paused: boolean) =>
      rows[id] &&
      (rows[id] = paused
        ? { uploadsPausedAt: rows[id].uploadsPausedAt ?? PAUSED_AT, uploadsPauseReason: rows[id].uploadsPauseReason ?? 'admin' }
        : { uploadsPausedAt: null, uploadsPauseReason: null }),
  };
  const aiLogs = { retriesDueNow: async (id: string) => (calls.broughtForward.push(id), 3) };
  const queue = { wake: async (ids: string[]) => void calls.woken.push(ids) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      AccountOperationsService,
      { provide: AccountPausesRepository, useValue: accounts },
      { provide: AdminLogsRepository, useValue: {} },
      { provide: AiLogRepository, useValue: aiLogs },
      { provide: DueLogsQueue, useValue: queue },
      { provide: LogStatsRepository, useValue: {} },
      { provide: WeexAccountClients, useValue: {} },
      { provide: EvidenceService, useValue: {} },
    ],
  }).compile();
  return { operations: moduleRef.get(AccountOperationsService), calls };
}

describe('AccountOperationsService (Nest testing module)', () => {
  it("answers a pause with the row's time and reason", async () => {
    const { operations } = await service({ a: { uploadsPausedAt: null, uploadsPauseReason: null } });
    expect(await operations.pause('a')).toEqual({ accountId: 'a', paused: true, pausedAt: PAUSED_AT.toISOString(), pauseReason: 'admin' });
  });

  it('resumes: the retries in backoff are due now and the account is woken', async () => {
    const { operations, calls } = await service({ a: { uploadsPausedAt: PAUSED_AT, uploadsPauseReason: 'ip_not_allowlisted' } });
    expect(await operations.resume('a')).toEqual({ accountId: 'a', paused: false, pausedAt: null, pauseReason: null, retriesDueNow: 3 });
    expect(calls.broughtForward).toEqual(['a']);
    expect(calls.woken).toEqual([['a']]);
  });

  it('answers 404 for an account it does not know, and touches nothing', async () => {
    const { operations, calls } = await service({});
    await expect(operations.pause('nobody')).rejects.toBeInstanceOf(NotFoundException);
    await expect(operations.resume('nobody')).rejects.toBeInstanceOf(NotFoundException);
    expect(calls).toEqual({ broughtForward: [], woken: [] });
  });
});
