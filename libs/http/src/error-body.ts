import type { FieldError } from '#libs/validation';

/** The one error shape every endpoint answers with. */
export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  errors?: FieldError[];
  requestId: string;
  /** Only on 500s: the id under which the error was logged. */
  errorId?: string;
  /** Only when the exchange answered with an error: what it said, for the operation the request ran. */
  exchange?: ExchangeErrorDetails;
}

/** The exchange's own answer to a failed call, passed on as it came (it never holds credentials). */
export interface ExchangeErrorDetails {
  /** The spec operation, e.g. `cancelBatchOrders`. */
  operation: string;
  /** The exchange's code: a negative integer on v3 paths, a numeric string on v2 paths. */
  code?: string;
  message: string;
  httpStatus?: number;
}
