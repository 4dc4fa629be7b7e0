import { Module } from '@nestjs/common';
import { VerifyPageController } from './verify-page.controller.js';

/** The judges' proof verifier page at GET /verify. */
@Module({ controllers: [VerifyPageController] })
export class VerifyPageModule {}
