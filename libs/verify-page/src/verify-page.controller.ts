import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { NoQueryDto, securePage } from '#libs/http';
import { renderVerifyPage } from './verify-page.js';

/** An hour: the page is static for a build, and the ETag makes a check after that cheap. */
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * GET /verify: the judges' proof verifier. No auth: it holds no data and calls nothing; a page for people, so left out
 * of the OpenAPI document as the dashboard's pages are.
 */
@ApiExcludeController()
@Controller('verify')
export class VerifyPageController {
  @Get()
  getVerifyPage(@Query() _query: NoQueryDto, @Res() reply: FastifyReply): void {
    const page = renderVerifyPage();
    securePage(reply, page.security);
    void reply.header('cache-control', CACHE_CONTROL).header('etag', page.etag);
    if (reply.request.headers['if-none-match'] === page.etag) {
      void reply.status(304).send();
      return;
    }
    void reply.type('text/html; charset=utf-8').send(page.html);
  }
}
