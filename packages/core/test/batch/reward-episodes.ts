/**
 * The episodes the reward kernels' property tests draw: sub-agent counts and subtask counts as
 * integers or doubles, a completed share, r_perf and a training step (shared by the WebAssembly
 * kernel's and rewardTotalBatch's tests).
 */
import fc from 'fast-check';

/** One episode's reward inputs, before they become columns. */
export interface Episode {
  n: number;
  assigned: number;
  completed: number;
  perf: number;
  step: number;
}

/** An episode: counts up to 400 (or any double to 1e6), completed ≤ assigned, r_perf in ±1000, step up to 20,000 (or a double). */
export const episodeArb: fc.Arbitrary<Episode> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 400 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
    fc.oneof(fc.integer({ min: 0, max: 400 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: -1e3, max: 1e3, noNaN: true }),
    fc.oneof(fc.integer({ min: 0, max: 20000 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
  )
  .map(([n, assigned, share, perf, step]) => ({ n, assigned, completed: assigned * share, perf, step }));
