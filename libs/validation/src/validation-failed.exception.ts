import { BadRequestException } from '@nestjs/common';
import type { FieldError } from './field-error.js';

/** 400 listing every failing field at once. */
export class ValidationFailedException extends BadRequestException {
  constructor(
    readonly errors: FieldError[],
    message = 'Request validation failed',
  ) {
    super(message);
  }
}
