/** One failing field: `path` is dotted (`input.prices.0`), `message` says which rule it broke. */
export interface FieldError {
  path: string;
  message: string;
}

/** The one error shape every endpoint answers with. */
export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  errors?: FieldError[];
  requestId: string;
  /** Only on 500s: the id under which the error was logged. */
  errorId?: string;
}
