/** An instant as UTC to the millisecond, the way the API and the exchange state it: no time zone to guess. */
export const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/Z$/, ' UTC') : '—');

/** Unix ms (the exchange's order and fill times) as `when` shows an ISO instant. */
export const whenMillis = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '—' : when(new Date(ms).toISOString()));

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The value of a datetime-local input for an ISO instant, and back, both in UTC: the inputs are labelled UTC, as every
 * time the console states is, rather than in the browser's zone.
 */
export function utcInput(iso: string | undefined): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  return new Date(iso).toISOString().slice(0, 19);
}

/** An input's `2026-01-01T00:00` or `2026-01-01T00:00:00` as the ISO instant it names in UTC. */
export const fromUtcInput = (value: string): string | undefined =>
  value && !Number.isNaN(Date.parse(`${value}Z`)) ? new Date(`${value}Z`).toISOString() : undefined;
