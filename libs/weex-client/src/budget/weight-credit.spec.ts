import { WeightCredit } from './weight-credit.js';

const ORDER_INFO = { ip: 2, uid: 3 };
const LIMITS = { ip: 500, uid: 500 };

describe('WeightCredit', () => {
  it('asks one lease at a time, of one more call or a fiftieth of the limit, whichever is more', () => {
    const credit = new WeightCredit();
    expect(credit.ask(ORDER_INFO, LIMITS)).toEqual({ ip: 10, uid: 10 });
    expect(credit.ask(ORDER_INFO, LIMITS)).toEqual({ ip: 0, uid: 0 });
    credit.settle({ ip: 0, uid: 0 }, 'w1:w1', true);
    expect(credit.ask(ORDER_INFO, LIMITS)).toEqual({ ip: 0, uid: 0 });
    credit.settle({ ip: 10, uid: 10 }, 'w1:w1', false);
    expect(credit.ask({ ip: 10, uid: 15 }, LIMITS)).toEqual({ ip: 10, uid: 15 });
    expect(new WeightCredit().ask({ ip: 1, uid: 0 }, LIMITS)).toEqual({ ip: 10, uid: 0 });
  });

  it('serves calls from a granted lease in its own window only, and never beyond it', () => {
    const credit = new WeightCredit();
    const lease = credit.ask(ORDER_INFO, LIMITS);
    expect(credit.take('w1:w1', ORDER_INFO)).toBe(false);
    credit.settle(lease, 'w1:w1', true);
    expect(credit.take('w2:w2', ORDER_INFO)).toBe(false);
    // 10 IP / 10 UID: three orderInfo (2 / 3 each), not a fourth.
    expect([1, 2, 3, 4].map(() => credit.take('w1:w1', ORDER_INFO))).toEqual([true, true, true, false]);
    expect(credit.take('w1:w1', { ip: 4, uid: 1 })).toBe(true);
    expect(credit.take('w1:w1', { ip: 1, uid: 0 })).toBe(false);
  });

  it('lets the credit of an ended window lapse, and keeps what is left in the same window', () => {
    const credit = new WeightCredit();
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'w1:w1', true);
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'w1:w1', true);
    expect(Array.from({ length: 7 }, () => credit.take('w1:w1', ORDER_INFO)).filter(Boolean)).toHaveLength(6);
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'w1:w1', true);
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'w2:w2', true);
    expect(Array.from({ length: 4 }, () => credit.take('w2:w2', ORDER_INFO)).filter(Boolean)).toHaveLength(3);
  });

  it('asks no lease for a weightless call, and still leases with the next call', () => {
    const credit = new WeightCredit();
    expect(credit.ask({ ip: 0, uid: 0 }, LIMITS)).toEqual({ ip: 0, uid: 0 });
    expect(credit.ask(ORDER_INFO, LIMITS)).toEqual({ ip: 10, uid: 10 });
  });

  it('keeps weight given back as credit of its window, with what the window had left', () => {
    const credit = new WeightCredit();
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'w1:w1', true);
    credit.refund('w1:w1', ORDER_INFO);
    expect(Array.from({ length: 5 }, () => credit.take('w1:w1', ORDER_INFO)).filter(Boolean)).toHaveLength(4);
    credit.refund('w2:w2', ORDER_INFO);
    expect([credit.take('w1:w1', ORDER_INFO), credit.take('w2:w2', ORDER_INFO), credit.take('w2:w2', ORDER_INFO)]).toEqual([false, true, false]);
  });

  it('drops the credit on a pause', () => {
    const credit = new WeightCredit();
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'w1:w1', true);
    credit.drop();
    expect(credit.take('w1:w1', ORDER_INFO)).toBe(false);
  });

  it("hands what is left of another bucket's credit back once, to give back to that bucket", () => {
    const credit = new WeightCredit();
    credit.settle(credit.ask(ORDER_INFO, LIMITS), 'b1:b1', true);
    expect(credit.take('b1:b1', ORDER_INFO)).toBe(true);
    expect(credit.lapsed('b1:b1')).toBeUndefined();
    expect(credit.lapsed('b2:b2')).toEqual({ window: 'b1:b1', weight: { ip: 8, uid: 7 } });
    expect(credit.lapsed('b2:b2')).toBeUndefined();
    expect(credit.take('b1:b1', ORDER_INFO)).toBe(false);
  });
});
