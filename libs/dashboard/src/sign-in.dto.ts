import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/**
 * Where the dashboard lives, and what `next` may name: `/admin/queues` or a path below it made of plain segments (no
 * `.` or `..` segment) with an optional plain query. No `%`, `\`, `//`, scheme, space or control character can match,
 * so no decoding, encoding or browser's URL repair can turn a match into another origin or path.
 */
export const DASHBOARD_PATH = '/admin/queues';
const NEXT = /^\/admin\/queues(?:\/(?!\.\.?(?:[/?]|$))[A-Za-z0-9._~:-]+)*\/?(?:\?[A-Za-z0-9._~:=&,-]*)?$/;

export const isDashboardPath = (path: string): boolean => NEXT.test(path);

/** `GET /admin/sign-in?next=`: where to go once signed in (default /admin/queues). */
export class SignInQueryDto {
  @IsOptional()
  @IsString()
  @Matches(NEXT, { message: 'next must be /admin/queues or a path under it, of letters, digits and . _ ~ : - only (no //, \\, %, scheme or dot segment)' })
  next?: string;
}

/** `POST /admin/sign-in`. */
export class SignInDto {
  @IsString() @IsNotEmpty() @MaxLength(1024) token: string;
}
