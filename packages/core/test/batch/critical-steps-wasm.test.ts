import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCriticalStepsBatchInput,
  allocateCriticalStepsBatchOutput,
  CRITICAL_STEPS_BATCH_FIELDS,
  criticalStepsBatch,
  type CriticalStepsBatchOutput,
} from '../../src/index.js';
import { criticalStepsWasm } from '../../src/batch/critical-steps-wasm.js';
import { arenaOf } from '../../src/batch/wasm-arena.js';

// The WebAssembly SIMD kernel against the JavaScript one (kernel: 'js'), bit for bit, called
// directly (so a kernel that declined would fail the test) and through criticalStepsBatch.

/** Steps as float32 values: small integers, any float32 (denormals to 3.4e38), and edge values. */
const stepArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }) },
  { weight: 3, arbitrary: fc.float({ min: 0, max: Math.fround(3.4e38), noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 2 ** -149, 2 ** -126, 3.4028234663852886e38, 1e30, 1e-30, 0.1, 16777217) },
);

interface Case {
  B: number;
  T: number;
  N: number;
  sub: number[];
  groups: number[] | undefined;
  mains: number[] | undefined;
  used: number[] | undefined;
}

/** Random shapes (N up to 40 exercises the 16-wide, 4-wide and masked tail paths), ragged or not. */
const caseArb: fc.Arbitrary<Case> = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 }))
  .chain(([B, T, N]) =>
    fc.record({
      B: fc.constant(B),
      T: fc.constant(T),
      N: fc.constant(N),
      sub: fc.array(stepArb, { minLength: B * T * N, maxLength: B * T * N }),
      groups: fc.option(fc.array(fc.integer({ min: 0, max: N }), { minLength: B * T, maxLength: B * T }), { nil: undefined }),
      mains: fc.option(fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 1e6, noNaN: true })), { minLength: B * T, maxLength: B * T }), {
        nil: undefined,
      }),
      used: fc.option(fc.array(fc.integer({ min: 0, max: T }), { minLength: B, maxLength: B }), { nil: undefined }),
    }),
  );

function expectSame(got: CriticalStepsBatchOutput, want: CriticalStepsBatchOutput, B: number): void {
  for (const field of CRITICAL_STEPS_BATCH_FIELDS) {
    for (let b = 0; b < B; b++) expect(Object.is(got[field][b], want[field][b]), `${field}[${b}]: ${got[field][b]} vs ${want[field][b]}`).toBe(true);
  }
}

function inputOf(c: Case, subSteps: Float32Array) {
  return {
    batch: c.B,
    stages: c.T,
    width: c.N,
    subSteps,
    ...(c.groups === undefined ? {} : { groupSizes: Int32Array.from(c.groups) }),
    ...(c.mains === undefined ? {} : { mainSteps: c.mains }),
    ...(c.used === undefined ? {} : { numStages: Uint8Array.from(c.used) }),
  };
}

describe('criticalStepsWasm', () => {
  it('equals the JavaScript kernel bit for bit on random ragged input (steps copied in)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const input = inputOf(c, Float32Array.from(c.sub));
        const want = criticalStepsBatch({ ...input, kernel: 'js' });
        const got = allocateCriticalStepsBatchOutput(c.B);
        expect(criticalStepsWasm(c.B, c.T, c.N, input.subSteps, input.groupSizes, input.mainSteps, input.numStages, got)).toBe(true);
        expectSame(got, want, c.B);
        expectSame(criticalStepsBatch({ ...input, kernel: 'wasm' }), want, c.B);
      }),
      { numRuns: 300 },
    );
  });

  it('equals the JavaScript kernel on steps read in place from allocateCriticalStepsBatchInput', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const allocated = allocateCriticalStepsBatchInput(c.B, c.T, c.N);
        expect(arenaOf(allocated.subSteps)).toBeDefined();
        allocated.subSteps.set(c.sub);
        const input = inputOf(c, allocated.subSteps);
        const want = criticalStepsBatch({ ...input, subSteps: Float32Array.from(allocated.subSteps), kernel: 'js' });
        const got = allocateCriticalStepsBatchOutput(c.B);
        expect(criticalStepsWasm(c.B, c.T, c.N, input.subSteps, input.groupSizes, input.mainSteps, input.numStages, got)).toBe(true);
        expectSame(got, want, c.B);
      }),
      { numRuns: 100 },
    );
  });

  it('sums in float64 in stage order where the steps span too many binades for any order', () => {
    // 2^24 + 1 + 1 + ... : float64 keeps every 1, float32 would not; and 1e30 + 1e-30 + ...
    // needs the slow path, whose sequential order must match JavaScript's.
    const sub = new Float32Array(40);
    sub[0] = 2 ** 24;
    sub.fill(1, 1, 20);
    sub[20] = 1e30;
    sub.fill(1e-30, 21, 40);
    const input = { batch: 1, stages: 2, width: 20, subSteps: sub };
    const want = criticalStepsBatch({ ...input, kernel: 'js' });
    const got = allocateCriticalStepsBatchOutput(1);
    expect(criticalStepsWasm(1, 2, 20, sub, undefined, undefined, undefined, got)).toBe(true);
    expectSame(got, want, 1);
    expect(got.total_steps[0]).toBe(1 + (2 ** 24 + 19) + 1 + (Math.fround(1e30) + 19 * Math.fround(1e-30)));
  });

  it('declines a negative, NaN or infinite step inside a group, and criticalStepsBatch then names it', () => {
    const bad = fc.constantFrom(-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1e-30);
    fc.assert(
      fc.property(caseArb, bad, fc.nat(), (c, value, pick) => {
        const sub = Float32Array.from(c.sub);
        const index = pick % sub.length;
        sub[index] = value;
        const input = inputOf(c, sub);
        let jsError: unknown;
        try {
          criticalStepsBatch({ ...input, kernel: 'js' });
        } catch (err) {
          jsError = err;
        }
        const out = allocateCriticalStepsBatchOutput(c.B);
        // outside every group that runs, the bad value is ignored by both kernels
        expect(criticalStepsWasm(c.B, c.T, c.N, sub, input.groupSizes, input.mainSteps, input.numStages, out)).toBe(jsError === undefined);
        if (jsError === undefined) expectSame(out, criticalStepsBatch({ ...input, kernel: 'js' }), c.B);
        else expect(() => criticalStepsBatch({ ...input, kernel: 'wasm' })).toThrow((jsError as Error).message);
      }),
      { numRuns: 200 },
    );
  });

  it('declines bad group sizes, main steps and stage counts, which criticalStepsBatch then names', () => {
    const sub = new Float32Array([1, 2, 3, 4]);
    const base = { batch: 1, stages: 2, width: 2, subSteps: sub, kernel: 'wasm' as const };
    expect(() => criticalStepsBatch({ ...base, groupSizes: [3, 0] })).toThrow('groupSizes[0, 0] must be an integer between 0 and 2, got 3');
    expect(() => criticalStepsBatch({ ...base, groupSizes: [1, 1.5] })).toThrow('groupSizes[0, 1] must be an integer between 0 and 2, got 1.5');
    expect(() => criticalStepsBatch({ ...base, mainSteps: [1, Number.NaN] })).toThrow('mainSteps[0, 1] must be a finite number ≥ 0, got NaN');
    expect(() => criticalStepsBatch({ ...base, numStages: [3] })).toThrow('numStages[0] must be an integer between 0 and 2, got 3');
    // a stage past numStages is not read, so its bad group size is no error
    expect(criticalStepsBatch({ ...base, groupSizes: [2, 9], numStages: [1] }).critical_steps[0]).toBe(3);
  });

  it('-0 steps give the same +0 maximum and sum as JavaScript', () => {
    const sub = new Float32Array([-0, -0, -0, -0, -0]);
    const got = allocateCriticalStepsBatchOutput(1);
    expect(criticalStepsWasm(1, 1, 5, sub, undefined, [0], undefined, got)).toBe(true);
    expectSame(got, criticalStepsBatch({ batch: 1, stages: 1, width: 5, subSteps: sub, mainSteps: [0], kernel: 'js' }), 1);
    expect(Object.is(got.critical_steps[0], 0)).toBe(true);
  });
});

describe('allocateCriticalStepsBatchInput', () => {
  it('gives zeroed float32 steps of the shape, in WebAssembly memory unless the JavaScript kernel is chosen', () => {
    const input = allocateCriticalStepsBatchInput(3, 2, 5);
    expect([input.batch, input.stages, input.width, input.subSteps.length]).toEqual([3, 2, 5, 30]);
    expect(input.subSteps.every((v) => v === 0)).toBe(true);
    expect(arenaOf(input.subSteps)).toBeDefined();
    expect(arenaOf(allocateCriticalStepsBatchInput(3, 2, 5, 'js').subSteps)).toBeUndefined();
    expect(() => allocateCriticalStepsBatchInput(-1, 2, 5)).toThrow('batch');
  });
});
