import { readEnvelope } from './envelope.js';
import { normaliseList, normaliseRecord, type RecordShape } from './normalise.js';

const ORDER: RecordShape = { ids: ['orderId'], times: ['time'] };
const read = (text: string) => readEnvelope(text).data;

describe('normalisers', () => {
  it('turn an 18-digit JSON number into its exact digits, where JSON.parse would round it', () => {
    const [order] = normaliseList<{ orderId: string }>(read('[{"orderId":737185556881998184}]'), ORDER, 'op');
    expect(JSON.parse('737185556881998184')).toBe(737185556881998200);
    expect(order.orderId).toBe('737185556881998184');
  });

  it('keep an 18-digit string ID as it is', () => {
    expect(normaliseRecord(read('{"orderId":"737185556881998184"}'), ORDER, 'op')).toEqual({ orderId: '737185556881998184' });
  });

  it('turn times sent as strings or numbers into numbers', () => {
    expect(normaliseList(read('[{"time":"1767225600000"},{"time":1767225600001}]'), ORDER, 'op')).toEqual([{ time: 1767225600000 }, { time: 1767225600001 }]);
  });

  it('keep amounts as the decimal text sent, even when sent as numbers', () => {
    const record = normaliseRecord(read('{"price":0.1000000000000000000001,"fee":1e-7,"qty":"0.5","ok":true,"n":null}'), {}, 'op');
    expect(record).toEqual({ price: '0.1000000000000000000001', fee: '1e-7', qty: '0.5', ok: true, n: null });
  });

  it('read the payload of a v2 envelope and of a raw v3 answer alike', () => {
    const v2 = read('{"code":"00000","msg":"success","requestTime":1,"data":{"orderId":737185556881998184,"time":"5"}}');
    const v3 = read('{"orderId":"737185556881998184","time":5}');
    expect(normaliseRecord(v2, ORDER, 'op')).toEqual(normaliseRecord(v3, ORDER, 'op'));
    expect(normaliseRecord(v3, ORDER, 'op')).toEqual({ orderId: '737185556881998184', time: 5 });
  });

  it('convert lists of IDs and nested records', () => {
    const shape: RecordShape = { ids: ['orderIds'], records: { results: { ids: ['order_id'] } } };
    const raw = read('{"orderIds":[737185556881998184,"2"],"results":[{"order_id":737185556881998185}]}');
    expect(normaliseRecord(raw, shape, 'op')).toEqual({ orderIds: ['737185556881998184', '2'], results: [{ order_id: '737185556881998185' }] });
  });

  it('refuse an answer of the wrong shape with an error naming the operation', () => {
    expect(() => normaliseList(read('{"a":1}'), ORDER, 'openOrders')).toThrow(
      expect.objectContaining({ name: 'WeexApiError', operation: 'openOrders', kind: 'unavailable' }),
    );
  });
});
