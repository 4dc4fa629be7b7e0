import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { expectNoQuery, QueryInteger, validateQuery } from './validate-query.js';
import { ValidationFailedException } from './validation-failed.exception.js';

class PageQuery {
  @QueryInteger()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsString()
  symbol?: string;
}

function pathsOf(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    return [...new Set((error as ValidationFailedException).errors.map((e) => e.path))];
  }
}

describe('validateQuery', () => {
  it('converts the digit strings of integer fields, and nothing else', () => {
    expect(validateQuery(PageQuery, { limit: '5', symbol: '12' })).toEqual(Object.assign(new PageQuery(), { limit: 5, symbol: '12' }));
    expect(validateQuery(PageQuery, {})).toEqual(new PageQuery());
  });

  it('leaves text that is not a safe integer as text, so that the field rule refuses it', () => {
    for (const limit of ['ten', '1.5', '', '1e2', '99999999999999999999']) expect(pathsOf(() => validateQuery(PageQuery, { limit }))).toEqual(['limit']);
  });

  it('says only that a value of the wrong type has the wrong type, not that it is also out of range', () => {
    const errors = (query: object) => {
      try {
        validateQuery(PageQuery, query);
        return [];
      } catch (error) {
        return (error as ValidationFailedException).errors;
      }
    };
    expect(errors({ limit: 'ten' })).toEqual([{ path: 'limit', message: 'limit must be an integer number' }]);
    expect(errors({ limit: '0' })).toEqual([{ path: 'limit', message: 'limit must not be less than 1' }]);
  });

  it('refuses repeated and unknown parameters together with the field rules', () => {
    expect(pathsOf(() => validateQuery(PageQuery, { symbol: ['a', 'b'], limit: '0', page: '1' })).sort()).toEqual(['limit', 'page', 'symbol']);
    expect(pathsOf(() => validateQuery(PageQuery, { symbol: ['a', 'b'] }))).toEqual(['symbol']);
  });

  it('expectNoQuery refuses every parameter', () => {
    expect(() => expectNoQuery({})).not.toThrow();
    expect(pathsOf(() => expectNoQuery({ a: '1', b: '2' }))).toEqual(['a', 'b']);
  });
});
