/** One day in milliseconds: the exchange's query windows (7 and 90 days) and ours are stated in days. */
export const DAY_MS = 86_400_000;
