/**
 * The error answers the simulator gives, in one table. The codes come from /work/shared/docs/weex-facts.md and from
 * ccxt's exceptions table (docs/weex-ccxt-facts.md); which check yields which code, and the HTTP status of each, is
 * partly a guess [G]. Change a row here, not in the callers.
 */
export enum SimFailure {
  /** ACCESS-KEY header missing (ccxt: ACCESS_KEY_EMPTY). */
  AccessKeyMissing = 'ACCESS_KEY_MISSING',
  /** ACCESS-SIGN header missing (ccxt: ACCESS_SIGN_EMPTY). */
  AccessSignMissing = 'ACCESS_SIGN_MISSING',
  /** ACCESS-TIMESTAMP header missing (ccxt: ACCESS_TIMESTAMP_EMPTY). */
  AccessTimestampMissing = 'ACCESS_TIMESTAMP_MISSING',
  /** ACCESS-KEY not a known key. */
  AccessKey = 'ACCESS_KEY',
  /** ACCESS-SIGN not the signature of the request. */
  AccessSign = 'ACCESS_SIGN',
  /** ACCESS-PASSPHRASE missing or wrong. */
  AccessPassphrase = 'ACCESS_PASSPHRASE',
  /** ACCESS-TIMESTAMP not 13 digits. */
  AccessTimestamp = 'ACCESS_TIMESTAMP',
  /** ACCESS-TIMESTAMP more than 30 s away from the simulator clock. */
  TimestampExpired = 'TIMESTAMP_EXPIRED',
  /** The account's UID is not on the AI-log allowlist [G]. */
  NotAllowlisted = 'NOT_ALLOWLISTED',
  /** Bad JSON, or a missing or invalid field. */
  ParameterInvalid = 'PARAMETER_INVALID',
  /** No such path (or method). */
  NotFound = 'NOT_FOUND',
  /** A bug in the simulator ("system error" in WEEX's table). */
  Internal = 'INTERNAL',
  /** Over the IP or UID weight budget, or a rate-limit storm fault; WEEX documents only the HTTP 429 [G]. */
  RateLimited = 'RATE_LIMITED',
  /** Injected transient fault: WEEX's "system error", worth a retry. */
  SystemError = 'SYSTEM_ERROR',
  /** Caller IP not allowlisted. The edge answers 521 with an HTML page, so the JSON codes go unused there. */
  IpNotAllowed = 'IP_NOT_ALLOWED',
  /** No order (or plan order) with that ID in the account: v3 -3200 as ccxt captured it; v2 follows Bitget [G]. */
  OrderNotFound = 'ORDER_NOT_FOUND',
  /** A symbol the exchange does not list (ccxt: INVALID_SYMBOL). */
  InvalidSymbol = 'INVALID_SYMBOL',
  /** An order's side, type or timeInForce is not one the exchange knows (ccxt: -1117, -1116, -1115). */
  InvalidSide = 'INVALID_SIDE',
  InvalidOrderType = 'INVALID_ORDER_TYPE',
  InvalidTimeInForce = 'INVALID_TIME_IN_FORCE',
  /** Optional parameters that are valid alone but not together (ccxt: INVALID_PARAM_COMBINATION). */
  ParamCombination = 'PARAM_COMBINATION',
  /** An order quantity above the symbol's maximum (ccxt: CONTRACT_MAX_ORDER_QUANTITY_EXCEEDED). */
  MaxQuantityExceeded = 'MAX_QUANTITY_EXCEEDED',
  /** A price or quantity with more decimals than the symbol allows (ccxt: DECIMAL_PRECISION_ERROR). */
  DecimalPrecision = 'DECIMAL_PRECISION',
  /** A client order ID over 40 characters or with special characters (ccxt: CLIENT_OID_LENGTH_ERROR). */
  ClientOidLength = 'CLIENT_OID_LENGTH',
  /** The order is already final (filled, cancelled, expired) and cannot be cancelled [G]. */
  OrderNotCancellable = 'ORDER_NOT_CANCELLABLE',
}

export interface FailureCodes {
  /** v3 paths answer `{"code": <v3>, "msg": ...}`. */
  v3: number;
  /** v2 paths answer `{"code": "<v2>", "msg": ..., "requestTime": ..., "data": null}`. */
  v2: string;
  http: number;
}

export const FAILURE_CODES: Readonly<Record<SimFailure, FailureCodes>> = {
  // v2 codes of the missing headers follow Bitget's table, which WEEX's other v2 codes match [G].
  [SimFailure.AccessKeyMissing]: { v3: -1040, v2: '40001', http: 401 },
  [SimFailure.AccessSignMissing]: { v3: -1041, v2: '40002', http: 401 },
  [SimFailure.AccessTimestampMissing]: { v3: -1042, v2: '40003', http: 400 },
  [SimFailure.AccessKey]: { v3: -1044, v2: '40006', http: 401 },
  [SimFailure.AccessSign]: { v3: -1047, v2: '40009', http: 401 },
  [SimFailure.AccessPassphrase]: { v3: -1049, v2: '40012', http: 401 },
  [SimFailure.AccessTimestamp]: { v3: -1043, v2: '40005', http: 400 },
  [SimFailure.TimestampExpired]: { v3: -1046, v2: '40008', http: 400 },
  [SimFailure.NotAllowlisted]: { v3: -1051, v2: '40014', http: 403 },
  [SimFailure.ParameterInvalid]: { v3: -1140, v2: '40020', http: 400 },
  [SimFailure.NotFound]: { v3: -1000, v2: '40404', http: 404 },
  [SimFailure.Internal]: { v3: -1000, v2: '40015', http: 500 },
  [SimFailure.RateLimited]: { v3: -1003, v2: '429', http: 429 },
  [SimFailure.SystemError]: { v3: -1000, v2: '40015', http: 500 },
  [SimFailure.IpNotAllowed]: { v3: -1056, v2: '40018', http: 521 },
  [SimFailure.OrderNotFound]: { v3: -3200, v2: '43001', http: 400 },
  [SimFailure.InvalidSymbol]: { v3: -1121, v2: '40034', http: 400 },
  [SimFailure.InvalidSide]: { v3: -1117, v2: '40020', http: 400 },
  [SimFailure.InvalidOrderType]: { v3: -1116, v2: '40020', http: 400 },
  [SimFailure.InvalidTimeInForce]: { v3: -1115, v2: '40020', http: 400 },
  [SimFailure.ParamCombination]: { v3: -1128, v2: '40020', http: 400 },
  [SimFailure.MaxQuantityExceeded]: { v3: -3007, v2: '40020', http: 400 },
  [SimFailure.DecimalPrecision]: { v3: -1160, v2: '40020', http: 400 },
  [SimFailure.ClientOidLength]: { v3: -1180, v2: '40020', http: 400 },
  [SimFailure.OrderNotCancellable]: { v3: -2011, v2: '43004', http: 400 },
};

/** A request the simulator refuses. The message names the header or field and never carries a secret or signature. */
export class SimError extends Error {
  constructor(
    readonly failure: SimFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SimError';
  }

  get codes(): FailureCodes {
    return FAILURE_CODES[this.failure];
  }
}
