import { BadRequestException } from '@nestjs/common';
import type { FieldError } from './field-error.js';

/** How many failing fields an answer lists: a query of a thousand unknown parameters is not answered with each. */
export const LISTED_ERRORS = 50;

/** 400 listing every failing field at once (its answer lists the first {@link LISTED_ERRORS} and says how many). */
export class ValidationFailedException extends BadRequestException {
  constructor(
    readonly errors: FieldError[],
    message = 'Request validation failed',
  ) {
    super(message);
  }
}
