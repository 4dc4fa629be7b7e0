/** A parameter value as the caller resolved it; undefined ones are left out. */
export type QueryValue = string | number | undefined;

/**
 * Builds the query string once, in the order the parameters are given (the order of the spec's parameter table), so
 * the text that is signed is the text that is sent. Returns '' when no parameter is set.
 */
export function buildQuery(params: ReadonlyArray<readonly [string, QueryValue]>): string {
  return params
    .filter((entry): entry is readonly [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/** Builds a JSON body from the set parameters, in the order given; numbers here are small or ms times. */
export function buildBody(params: ReadonlyArray<readonly [string, unknown]>): string {
  return JSON.stringify(Object.fromEntries(params.filter(([, value]) => value !== undefined)));
}
