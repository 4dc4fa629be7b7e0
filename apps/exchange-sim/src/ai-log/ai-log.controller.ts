import { Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { RequireAiLogAllowlist, Verified } from '../auth/auth.decorators.js';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { WeexAuthGuard } from '../auth/weex-auth.guard.js';
import { v2Success } from '../http/envelope.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { AiLogService } from './ai-log.service.js';

const UPLOAD_SUCCESS = 'upload success';

/** POST uploadAiLog on the v3 and v2 paths: same body, different envelopes. */
@Controller('capi')
@UseGuards(WeexAuthGuard)
@RequireAiLogAllowlist()
export class AiLogController {
  constructor(
    private readonly aiLogs: AiLogService,
    @Inject(SIM_CLOCK) private readonly clock: Clock,
  ) {}

  @Post('v3/order/uploadAiLog')
  @HttpCode(200)
  uploadV3(@Verified() req: VerifiedRequest): Record<string, unknown> {
    this.aiLogs.upload(req);
    return { code: 0, msg: 'success', data: UPLOAD_SUCCESS };
  }

  @Post('v2/order/uploadAiLog')
  @HttpCode(200)
  uploadV2(@Verified() req: VerifiedRequest): Record<string, unknown> {
    this.aiLogs.upload(req);
    return v2Success(UPLOAD_SUCCESS, this.clock());
  }
}
