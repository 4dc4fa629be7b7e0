import { prehash, sign } from './signing.js';

describe('WEEX request signing', () => {
  it('matches the vector from weex-facts.md (computed independently of this code)', () => {
    const req = { timestamp: '1700000000000', method: 'GET', requestPath: '/capi/v3/account/position/allPosition' };
    expect(sign('test-secret', req)).toBe('r8IeniwAlQDiVw/9C+iT3gmmFMw0yJXVNyyQfdgp1ME=');
  });

  it('puts the query string after a "?" only when there is one, and the body last', () => {
    expect(prehash({ timestamp: '1', method: 'get', requestPath: '/p', queryString: 'a=1' })).toBe('1GET/p?a=1');
    expect(prehash({ timestamp: '1', method: 'GET', requestPath: '/p', queryString: '' })).toBe('1GET/p');
    expect(prehash({ timestamp: '1', method: 'POST', requestPath: '/p', body: '{"x":1}' })).toBe('1POST/p{"x":1}');
  });

  it('matches vectors computed with openssl for a POST body carrying a 64-bit order id', () => {
    // printf '%s' '1700000000000POST/capi/v3/order/uploadAiLog{"orderId":737185556881998184,"stage":"s"}' |
    //   openssl dgst -sha256 -hmac test-secret -binary | base64
    const body = '{"orderId":737185556881998184,"stage":"s"}';
    const req = { timestamp: '1700000000000', method: 'POST', requestPath: '/capi/v3/order/uploadAiLog', body };
    expect(sign('test-secret', req)).toBe(OPENSSL_VECTOR);
  });
});

const OPENSSL_VECTOR = 'HJhfVqNn/tDDdE1XS66ego1nja3gc1Qoq3by1rBZAk8=';
