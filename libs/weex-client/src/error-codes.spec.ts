import { classify, isMalformedRequestCode, isOrderNotFoundCode, isSuccessCode } from './error-codes.js';

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
    // ccxt's exceptions table: missing headers are credential problems, account states are permissions.
    [401, '-1040', 'auth'],
    [401, '-1041', 'auth'],
    [400, '-1042', 'auth'],
    [400, '-1050', 'permission'],
    [400, '-1055', 'permission'],
    [400, '-1057', 'permission'],
    [400, '-1058', 'permission'],
    [400, '-1190', 'permission'],
    [400, '-3200', 'invalid_request'],
    [400, '-1128', 'invalid_request'],
    // The form of the request refused (content type, JSON, method): sending it again changes nothing.
    [400, '-1045', 'invalid_request'],
    [400, '-1135', 'invalid_request'],
    [400, '-1150', 'invalid_request'],
  ] as const)('HTTP %s with code %s is %s', (status, code, kind) => {
    expect(classify(status, code)).toBe(kind);
  });

  it('knows "order does not exist" by its codes, contract and spot', () => {
    expect(['-3200', '-2200', '43001'].every(isOrderNotFoundCode)).toBe(true);
    expect([undefined, '-1140', '-1000'].some(isOrderNotFoundCode)).toBe(false);
  });

  it('knows a request whose form the exchange refused by its codes (ccxt -1045, -1135, -1150)', () => {
    expect(['-1045', '-1135', '-1150'].every(isMalformedRequestCode)).toBe(true);
    expect([undefined, '-1140', '-3200', '-1040'].some(isMalformedRequestCode)).toBe(false);
  });

  it('treats 0, "0" and "00000" as success', () => {
    expect(['0', '00000', '200'].every(isSuccessCode)).toBe(true);
    expect(isSuccessCode('-1140')).toBe(false);
  });
});
