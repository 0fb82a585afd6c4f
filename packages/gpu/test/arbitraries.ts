/** fast-check arbitraries shared by the kernel suites. */
import fc from 'fast-check';

/** A float32-exact number in [min, max]. */
export const f32 = (min: number, max: number) => fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true, noDefaultInfinity: true });

/** Random ragged staged batches: [B, T, N] steps, group sizes, main steps and stage counts. */
export const stagedBatches = fc
  .record({ B: fc.integer({ min: 1, max: 12 }), T: fc.integer({ min: 1, max: 8 }), N: fc.integer({ min: 1, max: 10 }) })
  .chain(({ B, T, N }) =>
    fc.record({
      batch: fc.constant(B),
      stages: fc.constant(T),
      width: fc.constant(N),
      subSteps: fc.array(f32(0, 50), { minLength: B * T * N, maxLength: B * T * N }).map((a) => Float32Array.from(a)),
      groupSizes: fc.array(fc.integer({ min: 0, max: N }), { minLength: B * T, maxLength: B * T }).map((a) => Int32Array.from(a)),
      mainSteps: fc.array(f32(0, 3), { minLength: B * T, maxLength: B * T }).map((a) => Float32Array.from(a)),
      numStages: fc.array(fc.integer({ min: 0, max: T }), { minLength: B, maxLength: B }).map((a) => Int32Array.from(a)),
    }),
  );
