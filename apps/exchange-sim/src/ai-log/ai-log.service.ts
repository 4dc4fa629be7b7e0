import { Inject, Injectable } from '@nestjs/common';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import type { AiLogUploadRecord } from '../state/ai-log-upload-record.js';
import { SimState } from '../state/sim-state.js';
import { parseAiLogBody } from './ai-log-body.js';

/** Accepts an authenticated AI-log upload: validates the body, then records the exact bytes received. */
@Injectable()
export class AiLogService {
  constructor(
    private readonly state: SimState,
    @Inject(SIM_CLOCK) private readonly clock: Clock,
  ) {}

  upload(req: VerifiedRequest): AiLogUploadRecord {
    parseAiLogBody(req.rawBody);
    return this.state.recordUpload(req.account, {
      receivedAt: this.clock(),
      path: req.path,
      timestamp: req.timestamp,
      signature: req.signature,
      rawBody: req.rawBody,
    });
  }
}
