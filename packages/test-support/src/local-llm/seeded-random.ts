/**
 * A seeded pseudo-random source (mulberry32), so a model file written twice from the same seed is
 * byte-identical.
 *
 * @module
 */

/** Draws uniform and normal numbers from one 32-bit seed. */
export interface SeededRandom {
  /** A uniform number in [0, 1). */
  uniform(): number;
  /** A normal number with mean 0 and standard deviation 1 (Box-Muller). */
  normal(): number;
}

/**
 * Make a seeded random source.
 *
 * @param seed - any integer; only its low 32 bits are used
 */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (): number => {
    const u = 1 - uniform();
    const v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  return { uniform, normal };
}
