/**
 * A small seeded generator (mulberry32) so that a suite is the same for the same seed everywhere.
 *
 * @module
 */

/** Uniform numbers in [0, 1) from a 32-bit seed. */
export class SeededRandom {
  private state: number;

  /** @param seed - any integer (taken modulo 2^32) */
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}
