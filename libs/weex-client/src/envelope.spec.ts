import { LosslessNumber } from 'lossless-json';
import { readEnvelope } from './envelope.js';

describe('readEnvelope', () => {
  it('reads a raw v3 answer, keeping 18-digit ids exact', () => {
    const env = readEnvelope('[{"orderId":737185556881998184}]');
    expect(env).toEqual({ ok: true, data: [{ orderId: new LosslessNumber('737185556881998184') }] });
  });

  it('reads v3 and v2 success envelopes', () => {
    expect(readEnvelope('{"code":0,"msg":"success","data":"upload success"}')).toMatchObject({ ok: true, code: '0', data: 'upload success' });
    expect(readEnvelope('{"code":"00000","msg":"success","requestTime":1,"data":"upload success"}')).toMatchObject({ ok: true, code: '00000' });
  });

  it('reads v3 and v2 errors', () => {
    expect(readEnvelope('{"code":-1140,"msg":"bad"}')).toMatchObject({ ok: false, code: '-1140', msg: 'bad' });
    expect(readEnvelope('{"code":"40020","msg":"Parameter symbol is invalid","data":null}')).toMatchObject({ ok: false, code: '40020' });
  });

  it('throws on a body that is not JSON, such as the 521 HTML page', () => {
    expect(() => readEnvelope('<html>521</html>')).toThrow(SyntaxError);
  });
});
