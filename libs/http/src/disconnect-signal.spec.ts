import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { disconnectSignal } from './disconnect-signal.js';

/** The part of a ServerResponse the signal reads: 'close', and whether the answer was sent by then. */
const response = (state: { writableFinished?: boolean; destroyed?: boolean } = {}) =>
  Object.assign(new EventEmitter(), { writableFinished: false, destroyed: false, ...state }) as unknown as ServerResponse & { writableFinished: boolean };

describe('disconnectSignal', () => {
  it('aborts when the connection closes before the answer is sent', () => {
    const res = response();
    const signal = disconnectSignal(res);
    expect(signal.aborted).toBe(false);
    res.emit('close');
    expect(signal.aborted).toBe(true);
  });

  it('aborts when the answer was sent too, so that reads still running (siblings of one that failed) stop', () => {
    const res = response();
    const signal = disconnectSignal(res);
    res.writableFinished = true;
    res.emit('close');
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('the request was answered');
  });

  it('is aborted already for a response whose connection is gone', () => {
    expect(disconnectSignal(response({ destroyed: true })).aborted).toBe(true);
  });
});
