import { classify, isSuccessCode } from './error-codes.js';

describe('classify', () => {
  it.each([
    [429, undefined, 'rate_limited'],
    [521, undefined, 'unavailable'],
    [400, '-1046', 'auth'],
    [400, '40008', 'auth'],
    [401, '-1047', 'auth'],
    [400, '40012', 'auth'],
    [403, '-1051', 'permission'],
    [400, '40018', 'permission'],
    [400, '-1000', 'transient'],
    [400, '40015', 'transient'],
    [500, undefined, 'transient'],
    [503, '-1140', 'transient'],
    [400, '-1140', 'invalid_request'],
    [400, '40020', 'invalid_request'],
    [404, '-1000', 'invalid_request'],
    [401, undefined, 'auth'],
    [403, undefined, 'permission'],
  ] as const)('HTTP %s with code %s is %s', (status, code, kind) => {
    expect(classify(status, code)).toBe(kind);
  });

  it('treats 0, "0" and "00000" as success', () => {
    expect(['0', '00000', '200'].every(isSuccessCode)).toBe(true);
    expect(isSuccessCode('-1140')).toBe(false);
  });
});
