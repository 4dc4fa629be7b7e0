/** One failing field: `path` is dotted (`input.prices.0`), `message` says which rule it broke. */
export interface FieldError {
  path: string;
  message: string;
}
