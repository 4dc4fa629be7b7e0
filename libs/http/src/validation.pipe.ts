import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { validateBody } from '#libs/validation';
import { expectNoQuery, validateQuery } from '#libs/validation';

/** Parameter types that are not DTOs: a `@Param('id') id: string` or an untyped parameter passes as it came. */
const PLAIN = new Set<unknown>([Object, String, Number, Boolean, Array]);

/**
 * The API's validation pipe (provided as APP_PIPE): a whole `@Body()`, `@Query()` or `@Param()` typed with a DTO class
 * is validated by its class-validator rules, through validateBody (bodies) or validateQuery (query strings and path
 * parameters, whose integer fields arrive as text). Every failing field is named, unknown ones are refused, and values
 * are copied as parsed, without a class-transformer pass: lossless numbers and 64-bit IDs stay as they were sent.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  transform(value: unknown, { type, metatype, data }: ArgumentMetadata): unknown {
    if (data !== undefined || typeof metatype !== 'function' || PLAIN.has(metatype)) return value;
    const dto = metatype as new () => object;
    if (dto === NoQueryDto) {
      expectNoQuery(value);
      return value;
    }
    if (type === 'body') return validateBody(dto, value);
    if (type === 'query' || type === 'param') return validateQuery(dto, value);
    return value;
  }
}

/** The query DTO of an endpoint that takes no query parameters: each one given is refused as an unknown field. */
export class NoQueryDto {}
