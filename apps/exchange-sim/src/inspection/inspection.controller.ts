import { Controller, Delete, Get, Query } from '@nestjs/common';
import { SimState } from '../state/sim-state.js';
import { findUploadDuplicates } from './upload-duplicates.js';

/** Simulator-only endpoints for tests and tooling; unauthenticated, since they exist only here. */
@Controller('__sim')
export class InspectionController {
  constructor(private readonly state: SimState) {}

  @Get('uploads')
  uploads(@Query('uid') uid?: string): Record<string, unknown> {
    return { uploads: this.state.uploads(typeof uid === 'string' && uid !== '' ? uid : undefined) };
  }

  /** Bodies recorded more than once for the same account: the traces of resent uploads. */
  @Get('uploads/duplicates')
  duplicates(): Record<string, unknown> {
    return { ...findUploadDuplicates(this.state.uploads()) };
  }

  @Get('stats')
  stats(): Record<string, unknown> {
    return { ...this.state.stats() };
  }

  @Delete('uploads')
  clearUploads(): Record<string, unknown> {
    return { cleared: this.state.clearUploads() };
  }
}
