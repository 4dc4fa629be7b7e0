import { Body, Controller, Delete, Get, HttpCode, Post, Query, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminAuthGuard, AdminThrottledException, clientAddress, consoleCookieName, ConsoleSessionService, type ConsoleSessionView } from '#libs/accounts';
import { NoQueryDto } from '#libs/http';

/** `POST /console/session`. */
export class ConsoleSignInDto {
  /** An agent key, a judge key, or the admin token. */
  @IsString() @IsNotEmpty() @MaxLength(512) credential: string;
}

const REFUSAL = 'credential must be an agent key, a judge key or the admin token';

/**
 * The console's sign-in: a credential in, an HttpOnly SameSite=Strict cookie out. With the cookie, the console calls the
 * same endpoints agents call with a bearer key (the guards accept either), as the key's account, or for an admin any.
 * A route for browsers, left out of the OpenAPI document as the dashboard's sign-in is (docs/console.md describes it).
 */
@ApiExcludeController()
@Controller('console/session')
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly admin: AdminAuthGuard,
  ) {}

  @Post()
  @HttpCode(200)
  async signIn(
    @Body() { credential }: ConsoleSignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const signedIn = (await this.sessions.signInWithKey(credential)) ?? (await this.signInAsAdmin(credential, request));
    // Secure when the browser reached us over TLS (directly, or through a proxy named in TRUST_PROXY).
    const secure = request.protocol === 'https' ? '; Secure' : '';
    const maxAge = Math.max(1, Math.round((Date.parse(signedIn.view.expiresAt) - Date.now()) / 1000));
    void reply.header('set-cookie', `${consoleCookieName(request)}=${signedIn.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`);
    return signedIn.view;
  }

  @Get()
  async current(@Query() _query: NoQueryDto, @Req() request: FastifyRequest): Promise<ConsoleSessionView> {
    const view = await this.sessions.view(request);
    if (!view) throw new UnauthorizedException('not signed in to the console');
    return view;
  }

  @Delete()
  @HttpCode(204)
  async signOut(@Query() _query: NoQueryDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.signOut(request);
    void reply.header(
      'set-cookie',
      `${consoleCookieName(request)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${request.protocol === 'https' ? '; Secure' : ''}`,
    );
  }

  private async signInAsAdmin(credential: string, request: FastifyRequest): Promise<{ token: string; view: ConsoleSessionView }> {
    await this.admin.verify(credential, clientAddress(request), REFUSAL).catch((error: unknown) => {
      // Without an admin token configured, a wrong credential is just wrong: admin access being off is not news to give.
      if (error instanceof UnauthorizedException) throw new UnauthorizedException(REFUSAL);
      // A mistyped agent key is counted as a wrong admin token, but is not to be called one.
      if (error instanceof AdminThrottledException) throw new AdminThrottledException(error.retryAfterS * 1000, 'credentials not recognised');
      throw error;
    });
    return this.sessions.signInAsAdmin(credential);
  }
}
