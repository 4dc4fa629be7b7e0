/** Weight spent per key in the window that `now` falls in (fixed) or ends (sliding). */
export interface WindowCounter {
  used(key: string, now: number): number;
  /** Charges weight now; a negative weight takes back a charge of the same window. */
  add(key: string, weight: number, now: number): void;
  clear(): void;
}
