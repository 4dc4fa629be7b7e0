import { IsOptional, IsString, MaxLength } from 'class-validator';
import { LosslessNumber } from '#libs/common';
import { QueryInteger } from '#libs/validation';
import { NoQueryDto, RequestValidationPipe } from './validation.pipe.js';
import { ValidationFailedException } from '#libs/validation';

class NoteDto {
  @IsString() @MaxLength(5) text: string;
  @IsOptional() id?: unknown;
}

class PageDto {
  @QueryInteger() @IsOptional() page?: number;
}

const pipe = new RequestValidationPipe();
const errorsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    return (error as ValidationFailedException).errors;
  }
  throw new Error('expected a validation failure');
};

describe('RequestValidationPipe', () => {
  it('validates a DTO body, naming each failing field and rule, and keeps lossless numbers as they were parsed', () => {
    const id = new LosslessNumber('737185556881998184');
    expect(pipe.transform({ text: 'hi', id }, { type: 'body', metatype: NoteDto })).toEqual(Object.assign(new NoteDto(), { text: 'hi', id }));
    expect(errorsOf(() => pipe.transform({ text: 'too long', extra: 1 }, { type: 'body', metatype: NoteDto }))).toEqual([
      { path: 'extra', message: 'extra is not a known field' },
      { path: 'text', message: 'text must be shorter than or equal to 5 characters' },
    ]);
  });

  it('reads query strings and path parameters as text, converting only their integer fields', () => {
    expect(pipe.transform({ page: '2' }, { type: 'query', metatype: PageDto })).toEqual(Object.assign(new PageDto(), { page: 2 }));
    expect(errorsOf(() => pipe.transform({ page: ['1', '2'] }, { type: 'query', metatype: PageDto }))).toEqual([
      { path: 'page', message: 'page must be given once' },
    ]);
    expect(errorsOf(() => pipe.transform({ a: '1' }, { type: 'query', metatype: NoQueryDto }))).toEqual([{ path: 'a', message: 'a is not a known field' }]);
  });

  it('passes a named parameter, a plain type and a custom decorator value through', () => {
    expect(pipe.transform('abc', { type: 'param', metatype: String, data: 'id' })).toBe('abc');
    expect(pipe.transform({ any: 1 }, { type: 'body', metatype: Object })).toEqual({ any: 1 });
    const agent = { accountId: 'a' };
    expect(pipe.transform(agent, { type: 'custom', metatype: NoteDto })).toBe(agent);
  });
});
