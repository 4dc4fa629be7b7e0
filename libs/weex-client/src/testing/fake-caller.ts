import { readEnvelope } from '../envelope.js';
import type { WeexCall, WeexCaller } from '../weex-request-runner.js';

/** A caller for unit tests: records every call and answers with the given JSON text, read as the transport reads it. */
export function fakeCaller(answer = '[]', now = Date.UTC(2026, 0, 31)): WeexCaller & { calls: WeexCall[] } {
  const calls: WeexCall[] = [];
  return {
    calls,
    now: () => now,
    call: async (call) => {
      calls.push(call);
      return { httpStatus: 200, data: readEnvelope(answer).data, simulator: false };
    },
  };
}

/** Runs a call that must be refused before anything is sent; returns the refusal for its field and message. */
export async function refusal(run: (caller: ReturnType<typeof fakeCaller>) => Promise<unknown>): Promise<{ field: string; message: string }> {
  const caller = fakeCaller();
  const error = await run(caller).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(caller.calls).toHaveLength(0);
  expect(error).toMatchObject({ name: 'WeexApiError', kind: 'invalid_request' });
  return error as { field: string; message: string };
}
