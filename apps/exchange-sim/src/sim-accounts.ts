import { SANDBOX_CREDENTIALS, type WeexCredentials } from '#libs/config';
import type { AccountDataSeed } from './state/account-data.js';

/** One account the simulator knows. */
export interface SimAccountSeed {
  uid: string;
  apiKey: string;
  secret: string;
  passphrase: string;
  /** Whether this UID may upload AI logs (WEEX keeps an official allowlist). */
  aiLogAllowlisted: boolean;
  /** The account's exchange data; records may omit fields and kinds left out are generated from the UID. */
  data?: AccountDataSeed;
}

export type SimCredentials = WeexCredentials;
export { SANDBOX_CREDENTIALS };

/** The default, allowlisted account (given credentials or the sandbox ones) and one that is not on the allowlist. */
export function defaultSimAccounts(credentials: SimCredentials = SANDBOX_CREDENTIALS): SimAccountSeed[] {
  return [
    { uid: '8000000001', ...pick(credentials), aiLogAllowlisted: true },
    {
      uid: '8000000002',
      apiKey: 'sim-key-not-allowlisted',
      secret: 'sim-secret-not-allowlisted',
      passphrase: 'sim-pass-not-allowlisted',
      aiLogAllowlisted: false,
    },
  ];
}

function pick({ apiKey, secret, passphrase }: SimCredentials): SimCredentials {
  return { apiKey, secret, passphrase };
}
