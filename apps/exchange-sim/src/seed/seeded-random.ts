/**
 * A small deterministic PRNG (mulberry32) seeded from text: the same seed (an account's UID) gives the same data on
 * every run, so tests and rehearsals can rely on it. Not for anything secret.
 */
export class SeededRandom {
  private state: number;

  /** A number is the start state itself; text is hashed to one. */
  constructor(seed: string | number) {
    if (typeof seed === 'number') {
      this.state = seed >>> 0;
      return;
    }
    // FNV-1a over the UTF-16 units: a stable 32-bit start state from any text.
    let hash = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
    this.state = hash >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  /** `length` lower-case hex digits. */
  hex(length: number): string {
    let text = '';
    while (text.length < length) text += this.int(0, 15).toString(16);
    return text;
  }
}
