import { HttpException } from '@nestjs/common';

/**
 * 429: this address sent too many wrong admin tokens; HttpExceptionFilter sends `retryAfterS` as Retry-After. `what`
 * names what it sent, for a route (the console's sign-in) that takes more than admin tokens.
 */
export class AdminThrottledException extends HttpException {
  readonly retryAfterS: number;

  constructor(waitMs: number, what = 'wrong admin tokens') {
    const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
    super({ code: 'RATE_LIMITED', message: `too many ${what} from this address; retry in ${retryAfterS} s` }, 429);
    this.retryAfterS = retryAfterS;
  }
}
