import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Injectable, Logger, type OnModuleInit, ServiceUnavailableException } from '@nestjs/common';
import { type ConsolePage, consolePage } from './console-page.js';

export interface ConsoleAsset {
  type: string;
  body: Buffer;
}

/** What scripts/build-console.mjs writes: the names of its one script and one stylesheet. */
interface Manifest {
  js: string;
  css: string;
}

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
const ASSET_NAME = /^console\.[A-Za-z0-9]+\.(js|css)$/;

/** The nearest `dist/console` above this module that holds a build: found from the sources and from `dist/` alike. */
export function findConsoleBuild(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'console');
    if (existsSync(join(candidate, 'manifest.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The console's page and assets, read into memory once at start: a request looks its file up by name in a map, so
 * nothing it sends reaches the file system.
 */
@Injectable()
export class ConsoleAssets implements OnModuleInit {
  private readonly logger = new Logger(ConsoleAssets.name);
  private built?: { page: ConsolePage; files: Map<string, ConsoleAsset> };

  onModuleInit(): void {
    const dir = findConsoleBuild();
    if (!dir) {
      this.logger.warn('the console is not built (no dist/console/manifest.json): GET /console answers 503 until `npm run build`');
      return;
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const files = new Map<string, ConsoleAsset>();
    for (const name of [manifest.js, manifest.css]) {
      const kind = ASSET_NAME.exec(name)?.[1];
      if (!kind) throw new Error(`dist/console/manifest.json names ${JSON.stringify(name)}, not a console asset`);
      files.set(name, { type: TYPES[kind], body: readFileSync(join(dir, name)) });
    }
    this.built = { page: consolePage(`/console/assets/${manifest.js}`, `/console/assets/${manifest.css}`), files };
  }

  page(): ConsolePage {
    if (!this.built) throw new ServiceUnavailableException('the console is not built: run `npm run build`');
    return this.built.page;
  }

  file(name: string): ConsoleAsset | undefined {
    return this.built?.files.get(name);
  }
}
