import { SANDBOX_CREDENTIALS, type WeexCredentials } from '#libs/config';
import type { AccountDataSeed } from './state/account-data.js';
import type { SimOrder } from './state/order-records.js';

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
  /** Orders added to the generated ones (not to orders the data gives), an hour old unless they say. */
  extraOrders?: Partial<SimOrder>[];
}

/** The order ID of the README's examples (and of ccxt's openOrders capture): a filled BTCUSDT buy of the sandbox account. */
export const README_SAMPLE_ORDER_ID = 737185556881998184n;

export type SimCredentials = WeexCredentials;
export { SANDBOX_CREDENTIALS };

/** The default, allowlisted account (given credentials or the sandbox ones) and one that is not on the allowlist. */
export function defaultSimAccounts(credentials: SimCredentials = SANDBOX_CREDENTIALS): SimAccountSeed[] {
  return [
    {
      uid: '8000000001',
      ...pick(credentials),
      aiLogAllowlisted: true,
      extraOrders: [
        { orderId: README_SAMPLE_ORDER_ID, symbol: 'BTCUSDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', origQty: '0.01', status: 'FILLED' },
      ],
    },
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
