/** An instant as UTC to the millisecond, the way the API and the exchange state it: no time zone to guess. */
export const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/Z$/, ' UTC') : '—');

/** Unix ms (the exchange's order and fill times) as `when` shows an ISO instant. */
export const whenMillis = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '—' : when(new Date(ms).toISOString()));

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The value of a datetime-local input (the browser's zone) for an ISO instant, and back. */
export function localInput(iso: string | undefined): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export const fromLocalInput = (value: string): string | undefined => (value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined);
