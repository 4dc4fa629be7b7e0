import { Controller, Get, NotFoundException, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { NoQueryDto, securePage } from '#libs/http';
import { ConsoleAssets } from './console-assets.js';
import { CONSOLE_SECURITY } from './console-page.js';

/** Asset names carry their content's hash: a name's bytes never change, so browsers keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /console: the console for teams, judges and operators (docs/console.md), and its assets. The page holds no data:
 * it signs in with POST /console/session and calls the API with the cookie. A page for people, so left out of the
 * OpenAPI document as the dashboard's and /verify are.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  constructor(private readonly assets: ConsoleAssets) {}

  @Get()
  getConsole(@Query() _query: NoQueryDto, @Res() reply: FastifyReply): void {
    const page = this.assets.page();
    securePage(reply, CONSOLE_SECURITY);
    // no-cache: a new build's page names new assets; the ETag makes the browser's check cheap.
    void reply.header('cache-control', 'no-cache').header('etag', page.etag);
    if (reply.request.headers['if-none-match'] === page.etag) {
      void reply.status(304).send();
      return;
    }
    void reply.type('text/html; charset=utf-8').send(page.html);
  }

  @Get('assets/:file')
  getConsoleAsset(@Param('file') file: string, @Query() _query: NoQueryDto, @Res() reply: FastifyReply): void {
    const asset = this.assets.file(file);
    if (!asset) throw new NotFoundException('no such console asset');
    void reply.header('cache-control', IMMUTABLE).type(asset.type).send(asset.body);
  }
}
