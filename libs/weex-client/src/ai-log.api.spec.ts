import { uploadAiLogBody } from './ai-log.api.js';

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
