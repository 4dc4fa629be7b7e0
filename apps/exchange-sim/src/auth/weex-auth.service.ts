import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sign } from '#libs/weex-client';
import { SimError, SimFailure } from '../errors.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { SimState } from '../state/sim-state.js';
import type { IncomingSignedRequest, VerifiedRequest } from './verified-request.js';

/** WEEX rejects a timestamp further than this from its own clock, in either direction. */
const MAX_CLOCK_SKEW_MS = 30_000;

/** Checks credentials the way WEEX does, in WEEX's order; the first failed check decides the error. */
@Injectable()
export class WeexAuthService {
  constructor(
    private readonly state: SimState,
    @Inject(SIM_CLOCK) private readonly clock: Clock,
  ) {}

  verify(req: IncomingSignedRequest, options: { aiLog: boolean }): VerifiedRequest {
    const apiKey = requireHeader(req, 'ACCESS-KEY', SimFailure.AccessKeyMissing);
    const signature = requireHeader(req, 'ACCESS-SIGN', SimFailure.AccessSignMissing);
    const passphrase = requireHeader(req, 'ACCESS-PASSPHRASE', SimFailure.AccessPassphrase);
    const timestamp = requireHeader(req, 'ACCESS-TIMESTAMP', SimFailure.AccessTimestampMissing);

    if (!/^\d{13}$/.test(timestamp)) {
      throw new SimError(SimFailure.AccessTimestamp, 'ACCESS-TIMESTAMP must be 13 digits of Unix milliseconds');
    }
    // The `clockSkewMs` fault moves this check's clock, and not the time /market/time serves.
    const skewMs = this.state.faults.clockSkewMs(splitUrl(req.url)[0], this.state.accountByApiKey(apiKey)?.uid);
    if (Math.abs(this.clock() + skewMs - Number(timestamp)) > MAX_CLOCK_SKEW_MS) {
      throw new SimError(SimFailure.TimestampExpired, 'ACCESS-TIMESTAMP is more than 30 s away from server time');
    }
    const account = this.state.accountByApiKey(apiKey);
    if (!account) throw new SimError(SimFailure.AccessKey, 'ACCESS-KEY is not a known API key');
    if (!safeEqual(passphrase, account.passphrase)) {
      throw new SimError(SimFailure.AccessPassphrase, 'ACCESS-PASSPHRASE is incorrect');
    }

    const [path, queryString = ''] = splitUrl(req.url);
    const signed = { timestamp, method: req.method, requestPath: path, queryString, body: req.rawBody };
    const expected = sign(account.secret, signed);
    if (!safeEqual(signature, expected)) {
      throw new SimError(SimFailure.AccessSign, 'ACCESS-SIGN does not match the request');
    }
    if (options.aiLog && !account.aiLogAllowlisted) {
      throw new SimError(SimFailure.NotAllowlisted, `UID ${account.uid} is not on the AI-log allowlist`);
    }
    return { account, path, timestamp, signature, rawBody: req.rawBody };
  }
}

function requireHeader(req: IncomingSignedRequest, name: string, failure: SimFailure): string {
  const value = req.headers[name.toLowerCase()];
  // ccxt's captured wording: "ACCESS_KEY header is required."
  if (typeof value !== 'string' || value === '') throw new SimError(failure, `${name.replace('-', '_')} header is required.`);
  return value;
}

function splitUrl(url: string): [string, string?] {
  const at = url.indexOf('?');
  return at < 0 ? [url] : [url.slice(0, at), url.slice(at + 1)];
}

/** Constant-time comparison; hashing first gives equal-length inputs, so not even the length leaks. */
function safeEqual(actual: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(actual), digest(expected));
}
