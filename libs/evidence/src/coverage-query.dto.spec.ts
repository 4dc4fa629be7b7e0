import { ValidationFailedException, validateQuery } from '#libs/validation';
import { CoverageQueryDto, coverageWindow, parseInstant } from './coverage-query.dto.js';

const DAY = 86_400_000;

describe('parseInstant', () => {
  it('reads Unix milliseconds and ISO-8601, taking a time without an offset as UTC', () => {
    expect(parseInstant('1767225600000')).toBe(1767225600000);
    expect(parseInstant('2026-01-01T00:00:00Z')).toBe(1767225600000);
    expect(parseInstant('2026-01-01T00:00:00.000Z')).toBe(1767225600000);
    expect(parseInstant('2026-01-01T01:00:00+01:00')).toBe(1767225600000);
    expect(parseInstant('2026-01-01T00:00:00')).toBe(1767225600000);
    expect(parseInstant('2026-01-01')).toBe(1767225600000);
  });

  it('refuses anything else', () => {
    for (const bad of [
      'yesterday',
      '',
      '-5',
      '1.5',
      '2026-13-45',
      '2026-01-01T25:00:00Z',
      '2026-11-31',
      '2026-02-30T00:00:00Z',
      '2027-02-29',
      '99999999999999999',
      undefined,
      ['1'],
    ]) {
      expect(parseInstant(bad)).toBeUndefined();
    }
  });
});

describe('CoverageQueryDto and coverageWindow', () => {
  const now = 1_800_000_000_000;
  // What the API does with a query string: its validation pipe, then the window.
  const readCoverageQuery = (query: unknown, at: number) => coverageWindow(validateQuery(CoverageQueryDto, query), at);
  const failure = (query: unknown) => {
    try {
      readCoverageQuery(query, now);
    } catch (error) {
      return (error as ValidationFailedException).errors;
    }
    throw new Error('expected a validation failure');
  };

  it('defaults to the last 7 days and a list limit of 100', () => {
    expect(readCoverageQuery({}, now)).toEqual({ from: new Date(now - 7 * DAY), to: new Date(now), limit: 100 });
  });

  it('names the field at fault', () => {
    expect(failure({ from: 'yesterday' })).toEqual([{ path: 'from', message: expect.stringContaining('ISO-8601') }]);
    expect(failure({ to: 'x' })).toEqual([{ path: 'to', message: expect.stringContaining('Unix milliseconds') }]);
    expect(failure({ from: String(now), to: String(now - 1) })).toEqual([{ path: 'from', message: 'from must not be after to' }]);
    expect(failure({ from: String(now - 91 * DAY), to: String(now) })).toEqual([{ path: 'from', message: expect.stringContaining('90 days') }]);
    expect(failure({ limit: '0' })).toEqual([{ path: 'limit', message: expect.stringContaining('1 to 1000') }]);
    expect(failure({ since: '1' })).toEqual([{ path: 'since', message: 'since is not a known field' }]);
  });
});
