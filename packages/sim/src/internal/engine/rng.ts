/**
 * The simulator's own small PRNG: mulberry32, one 32-bit state per stream, kept in typed arrays
 * so that a batch of episodes holds one stream each (the same episode draws the same numbers
 * whether it runs alone or in a batch).
 *
 * @module
 */

/**
 * Mix two 32-bit integers into a well-spread 32-bit seed (murmur3's finaliser over a
 * golden-ratio combination). Used to derive one stream per task and per episode from a run seed.
 *
 * @example
 * ```ts
 * const s = mixSeed(42, 7); // the seed of stream 7 of run 42
 * ```
 */
export function mixSeed(a: number, b: number): number {
  let h = (Math.imul(a | 0, 0x9e3779b1) ^ Math.imul((b | 0) + 0x7f4a7c15, 0x85ebca77)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * Draw a uniform number in [0, 1) from stream `i` of `states`, advancing that stream
 * (mulberry32).
 *
 * @param states - one 32-bit state per stream
 * @param i - the stream to draw from
 */
export function nextUniform(states: Int32Array, i: number): number {
  const s = ((states[i] as number) + 0x6d2b79f5) | 0;
  states[i] = s;
  let t = Math.imul(s ^ (s >>> 15), s | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * A single seeded stream for code that is not batched (weight initialisation, task order).
 *
 * @example
 * ```ts
 * const rng = new Rng(1);
 * rng.uniform(); // same value for seed 1, every time
 * ```
 */
export class Rng {
  private readonly state = new Int32Array(1);

  /** @param seed - any 32-bit integer */
  constructor(seed: number) {
    this.state[0] = mixSeed(seed, 0x5eed);
  }

  /** A uniform number in [0, 1). */
  uniform(): number {
    return nextUniform(this.state, 0);
  }

  /** A uniform integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.uniform() * (hi - lo + 1));
  }

  /** A standard normal draw (Box–Muller). */
  normal(): number {
    const u = 1 - this.uniform();
    const v = this.uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
