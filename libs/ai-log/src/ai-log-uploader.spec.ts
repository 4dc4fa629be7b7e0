import { Test } from '@nestjs/testing';
import { AccountPausesRepository } from '#libs/accounts';
import { GatewayConfig } from '#libs/config';
import { AiLogStatus, type AiLog } from '#libs/database';
import { type CallOptions, WeexApiError, type WeexClient, type WeightGrant } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { AiLogRepository } from './ai-log.repository.js';
import { AiLogUploader } from './ai-log-uploader.js';

// The uploader's decisions, one at a time, in a Nest testing module: its repository and the account's clients are
// stand-ins that record what they are asked (the end-to-end tests run the same paths against PostgreSQL and the
// simulator).
const HORIZON_MS = 60_000;
const config = {
  weexUploadApiVersion: 'v3',
  uploadRetryHorizonMs: HORIZON_MS,
  uploadBackoffMs: 1_000,
  uploadBackoffMaxMs: 8_000,
  sandbox: true,
} as GatewayConfig;

function log(overrides: Partial<AiLog> = {}): AiLog {
  return {
    id: 'log-1',
    accountId: 'default',
    attemptCount: 1,
    receivedAt: new Date(),
    retriedAt: null,
    orderId: null,
    stage: 's',
    model: 'm',
    input: {},
    output: {},
    explanation: 'e',
    ...overrides,
  } as unknown as AiLog;
}

async function uploaderWith(answer: (req: unknown, version: unknown, options: CallOptions) => Promise<unknown>, replaced = false, pausedMs = 0) {
  const finished: Array<{ status: AiLogStatus; reason: string | null; next?: Date; outcome: string; startedAt: Date }> = [];
  const calls = { release: 0, holdUploads: [] as string[][] };
  const repository = {
    finishAttempt: async (_id: string, _n: number, record: { outcome: string; startedAt: Date }, status: AiLogStatus, reason: string | null, next?: Date) => {
      finished.push({ status, reason, next, outcome: record.outcome, startedAt: record.startedAt });
    },
    release: async () => void calls.release++,
  };
  const pauses = { holdUploads: async (...args: string[]) => (calls.holdUploads.push(args), true), pausedMsSince: async () => pausedMs };
  const clients = { replacedSince: async () => replaced };
  const moduleRef = await Test.createTestingModule({
    providers: [
      AiLogUploader,
      { provide: AiLogRepository, useValue: repository },
      { provide: AccountPausesRepository, useValue: pauses },
      { provide: WeexAccountClients, useValue: clients },
      { provide: GatewayConfig, useValue: config },
    ],
  }).compile();
  const client = { uploadAiLog: answer, uploadAiLogUrl: () => 'http://exchange/capi/v3/order/uploadAiLog' } as unknown as WeexClient;
  return { uploader: moduleRef.get(AiLogUploader), client, finished, calls };
}

const grant = { fresh: () => true } as unknown as WeightGrant;
const error = (kind: ConstructorParameters<typeof WeexApiError>[0], code = '-1') =>
  new WeexApiError(kind, 'uploadAiLog', `${kind} answer`, { httpStatus: kind === 'auth' ? 401 : 500, code });

describe('AiLogUploader (Nest testing module)', () => {
  it('records an upload the exchange confirmed', async () => {
    const { uploader, client, finished } = await uploaderWith(async () => ({ httpStatus: 200, code: '0', msg: 'success', simulator: true }));
    expect(await uploader.send(log(), client, grant)).toEqual({ status: 'uploaded' });
    expect(finished).toEqual([expect.objectContaining({ status: AiLogStatus.uploaded, outcome: 'uploaded' })]);
  });

  it('times the attempt from the request going out, not from a wait before it (for the clock or the budget)', async () => {
    let sentAt = 0;
    const { uploader, client, finished } = await uploaderWith(async (_req, _version, options) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sentAt = Date.now();
      options.onSend?.();
      return { httpStatus: 200, code: '0', msg: 'success', simulator: true };
    });
    await uploader.send(log(), client, grant);
    expect(finished[0].startedAt.getTime()).toBeGreaterThanOrEqual(sentAt);
  });

  it('retries a transient failure with backoff while within the retry horizon', async () => {
    const { uploader, client, finished } = await uploaderWith(async () => Promise.reject(error('transient')));
    const result = await uploader.send(log({ attemptCount: 1 }), client, grant);
    expect(result).toEqual({ status: 'retrying', retryInMs: expect.any(Number) });
    expect((result as { retryInMs: number }).retryInMs).toBeGreaterThanOrEqual(500);
    expect((result as { retryInMs: number }).retryInMs).toBeLessThanOrEqual(1_000);
    expect(finished[0]).toMatchObject({ status: AiLogStatus.retrying, outcome: 'retryable' });
  });

  it('gives up on a transient failure once the next attempt would fall past the horizon, saying why', async () => {
    const { uploader, client, finished } = await uploaderWith(async () => Promise.reject(error('transient')));
    const old = log({ attemptCount: 9, receivedAt: new Date(Date.now() - HORIZON_MS + 100) });
    expect(await uploader.send(old, client, grant)).toEqual({ status: 'failed' });
    expect(finished[0]).toMatchObject({ status: AiLogStatus.failed, reason: expect.stringContaining('gave up after 9 attempts over the retry horizon') });
  });

  it('counts the horizon from an admin retry, not from when the log arrived', async () => {
    const { uploader, client } = await uploaderWith(async () => Promise.reject(error('transient')));
    const retried = log({ attemptCount: 1, receivedAt: new Date(Date.now() - 10 * HORIZON_MS), retriedAt: new Date() });
    expect(await uploader.send(retried, client, grant)).toMatchObject({ status: 'retrying' });
  });

  it('does not count the time the account was paused against the horizon', async () => {
    const paused = await uploaderWith(async () => Promise.reject(error('transient')), false, HORIZON_MS);
    const old = log({ attemptCount: 9, receivedAt: new Date(Date.now() - HORIZON_MS + 100) });
    expect(await paused.uploader.send(old, paused.client, grant)).toMatchObject({ status: 'retrying' });
  });

  it('fails an auth refusal at once, unless the credentials were replaced since the client was made', async () => {
    const fresh = await uploaderWith(async () => Promise.reject(error('auth')));
    expect(await fresh.uploader.send(log(), fresh.client, grant)).toEqual({ status: 'failed' });
    expect(fresh.finished[0]).toMatchObject({ outcome: 'permanent' });
    const stale = await uploaderWith(async () => Promise.reject(error('auth')), true);
    expect(await stale.uploader.send(log(), stale.client, grant)).toMatchObject({ status: 'retrying' });
  });

  it('records an answer it cannot trust as uncertain, and retries', async () => {
    const { uploader, client, finished } = await uploaderWith(async () => Promise.reject(error('uncertain')));
    expect(await uploader.send(log(), client, grant)).toMatchObject({ status: 'retrying' });
    expect(finished[0]).toMatchObject({ outcome: 'uncertain' });
  });

  it('holds the account on HTTP 521 without failing the log', async () => {
    const { uploader, client, finished, calls } = await uploaderWith(async () =>
      Promise.reject(new WeexApiError('unavailable', 'uploadAiLog', 'HTTP 521', { httpStatus: 521 })),
    );
    expect(await uploader.send(log(), client, grant)).toEqual({ status: 'held' });
    expect(finished[0]).toMatchObject({ status: AiLogStatus.retrying, outcome: 'retryable' });
    expect(calls.holdUploads).toEqual([['default', 'ip_not_allowlisted']]);
  });

  it('gives the log back untouched when nothing was sent', async () => {
    const { uploader, client, finished, calls } = await uploaderWith(async () => Promise.reject(new Error('could not build the request')));
    await expect(uploader.send(log(), client, grant)).rejects.toThrow('could not build the request');
    expect(finished).toEqual([]);
    expect(calls.release).toBe(1);
  });
});
