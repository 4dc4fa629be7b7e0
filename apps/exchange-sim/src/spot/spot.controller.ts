import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { OPERATIONS } from '#libs/weex-client';
import { Verified } from '../auth/auth.decorators.js';
import type { VerifiedRequest } from '../auth/verified-request.js';
import { WeexAuthGuard } from '../auth/weex-auth.guard.js';
import { RequestParams } from '../http/request-params.js';
import type { SimSpotBill } from '../state/account-records.js';
import { SpotService } from './spot.service.js';

/** Spec operation 10, served on the spot port only. */
@Controller()
@UseGuards(WeexAuthGuard)
export class SpotController {
  constructor(private readonly spot: SpotService) {}

  @Post(OPERATIONS.spotBills.path)
  @HttpCode(200)
  bills(@Verified() req: VerifiedRequest): SimSpotBill[] {
    return this.spot.bills(req.account, RequestParams.fromJsonBody(req.rawBody));
  }
}
