import { Module } from '@nestjs/common';
import { ConsoleAssets } from './console-assets.js';
import { ConsoleController } from './console.controller.js';

/** The browser console at GET /console, built by scripts/build-console.mjs and served from memory. */
@Module({ controllers: [ConsoleController], providers: [ConsoleAssets] })
export class ConsoleModule {}
