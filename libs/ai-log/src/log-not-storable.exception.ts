import { HttpException } from '@nestjs/common';

/** 400: PostgreSQL refused to store the request's logs. Validation should have caught it; this is the backstop. */
export class LogNotStorableException extends HttpException {
  constructor(cause: unknown) {
    const { message, detail } = cause as { message: string; detail?: string };
    // The statement held only this request's logs (the others were written apart), so its message tells no one else's data.
    super({ code: 'LOG_NOT_STORABLE', message: `PostgreSQL refused to store the log: ${message}${detail ? ` (${detail})` : ''}` }, 400, { cause });
  }
}
