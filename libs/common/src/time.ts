/** One day in milliseconds: the exchange's query windows (7 and 90 days) and ours are stated in days. */
export const DAY_MS = 86_400_000;

/**
 * False when `text` starts with a date (YYYY-MM-DD) that is not on the calendar (`2026-11-31`, `2026-02-30`), which
 * Date.parse rolls into the next month; true otherwise. Each reader of instants checks it, so the date meant is the
 * date read, or a 400.
 */
export function isCalendarDateOrNone(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return true;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
