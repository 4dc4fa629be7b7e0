import { uploadAiLogBody, uploadAiLogCall } from './ai-log.api.js';
import { readResponse } from './response-reader.js';
import type { WeexCaller } from './weex-request-runner.js';

const base = { stage: 'decision', model: 'm "v1"', input: '{"a":1}', output: '{"n":123456789012345678901}', explanation: 'é\n😀' };

describe('uploadAiLogBody', () => {
  it('writes orderId as a bare JSON integer with all its digits, first', () => {
    expect(uploadAiLogBody({ ...base, orderId: '737185556881998184' })).toBe(
      '{"orderId":737185556881998184,"stage":"decision","model":"m \\"v1\\"","input":{"a":1},"output":{"n":123456789012345678901},"explanation":"é\\n😀"}',
    );
  });

  it('leaves orderId out when there is none', () => {
    expect(uploadAiLogBody({ ...base, orderId: null })).toMatch(/^\{"stage":/);
  });

  it('refuses an orderId that is not decimal digits', () => {
    expect(() => uploadAiLogBody({ ...base, orderId: '1e5' })).toThrow(TypeError);
  });
});

describe('uploadAiLogCall', () => {
  /** A caller that answers every call with this HTTP 200 body, read as the transport reads it. */
  const answering = (text: string): WeexCaller => ({
    now: () => 0,
    call: async ({ operation }) => readResponse(operation, { status: 200, headers: {}, text }),
  });

  it.each(['{"code":0,"msg":"success","data":"upload success"}', '{"code":"00000","msg":"success","data":"upload success"}'])(
    'counts %s as uploaded',
    async (text) => {
      await expect(uploadAiLogCall(answering(text), base)).resolves.toMatchObject({ httpStatus: 200, data: 'upload success' });
    },
  );

  it.each(['{}', '{"success":false}', 'true', '<html><body>OK</body></html>'])('calls a 200 of %s uncertain, not uploaded', async (text) => {
    await expect(uploadAiLogCall(answering(text), base)).rejects.toMatchObject({ kind: 'uncertain', httpStatus: 200, retryable: true });
  });
});
