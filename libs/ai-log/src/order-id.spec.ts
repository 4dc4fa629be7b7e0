import { parseJson } from '#libs/common';
import { readOrderId } from './order-id.js';

const read = (json: string) => readOrderId((parseJson(`{"orderId":${json}}`) as { orderId: unknown }).orderId);

describe('readOrderId', () => {
  it.each([
    ['737185556881998184', '737185556881998184'],
    ['"737185556881998184"', '737185556881998184'],
    ['42', '42'],
    ['"0042"', '42'],
    ['9223372036854775807', '9223372036854775807'],
  ])('accepts %s as %s, digit for digit', (json, digits) => {
    expect(read(json)).toEqual({ digits });
  });

  it.each([
    ['"12a"', 'only decimal digits'],
    ['-5', 'positive'],
    ['0', 'positive'],
    ['1.5', 'integer'],
    ['1e30', 'integer'],
    ['9223372036854775808', 'at most 9223372036854775807'],
    ['true', 'JSON integer or a string of decimal digits'],
    ['{}', 'JSON integer or a string of decimal digits'],
  ])('rejects %s, naming the rule (%s)', (json, rule) => {
    const result = read(json);
    expect('error' in result && result.error).toContain(rule);
  });
});
