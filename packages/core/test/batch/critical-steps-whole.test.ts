import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRITICAL_STEPS_BATCH_FIELDS, criticalStepsBatch, type CriticalStepsBatchOutput } from '../../src/index.js';
import { createArena, layOut, type KernelExports } from '../../src/batch/wasm-arena.js';

// kernels.wat `critical_steps_whole` (sums in float32 where it can prove them exact) called
// directly on an instance of the test's own (an arena of wasm-arena.ts), against `critical_steps` (float64 sums) and
// the JavaScript kernel: where it answers (-1) its outputs are theirs bit for bit, and it must
// decline (-2) whatever it cannot prove, leaving the batch to `critical_steps`.

const WHOLE_DONE = -1;
const WHOLE_DECLINED = -2;

interface Case {
  B: number;
  T: number;
  N: number;
  sub: number[];
  groups: number[] | undefined;
}

/** Run `name` on a fresh instance over the case's steps (and group sizes); its return and outputs. */
function run(name: keyof KernelExports, c: Case): { code: number; out: CriticalStepsBatchOutput } {
  const { B, T, N } = c;
  const plan = layOut(0, [B * T * N * 4, B * T * 4, B * 8, B * 8, B * 8, B * 4, B * 4, B * 8]);
  const arena = createArena(plan.end, 0);
  if (arena === undefined) throw new Error('no WebAssembly SIMD here');
  const { memory, kernels } = arena;
  const [sub, groups, critical, total, parallelism, maxWidth, stages, meanWidth] = plan.offsets as [number, number, number, number, number, number, number, number];
  new Float32Array(memory.buffer, sub, B * T * N).set(c.sub);
  if (c.groups !== undefined) new Int32Array(memory.buffer, groups, B * T).set(c.groups);
  const flags = c.groups === undefined ? 0 : 1;
  const code = kernels[name](B, T, N, sub, groups, 0, 0, flags, critical, total, parallelism, maxWidth, stages, meanWidth);
  const out: CriticalStepsBatchOutput = {
    critical_steps: new Float64Array(memory.buffer, critical, B).slice(),
    total_steps: new Float64Array(memory.buffer, total, B).slice(),
    parallelism: new Float64Array(memory.buffer, parallelism, B).slice(),
    max_width: new Int32Array(memory.buffer, maxWidth, B).slice(),
    num_stages: new Int32Array(memory.buffer, stages, B).slice(),
    mean_width: new Float64Array(memory.buffer, meanWidth, B).slice(),
  };
  return { code, out };
}

function js(c: Case): CriticalStepsBatchOutput {
  return criticalStepsBatch({
    batch: c.B,
    stages: c.T,
    width: c.N,
    subSteps: Float32Array.from(c.sub),
    ...(c.groups === undefined ? {} : { groupSizes: Int32Array.from(c.groups) }),
    kernel: 'js',
  });
}

function expectSame(got: CriticalStepsBatchOutput, want: CriticalStepsBatchOutput, B: number): void {
  for (const field of CRITICAL_STEPS_BATCH_FIELDS) {
    for (let b = 0; b < B; b++) expect(Object.is(got[field][b], want[field][b]), `${field}[${b}]: ${got[field][b]} vs ${want[field][b]}`).toBe(true);
  }
}

/**
 * Steps near the edges of the proof: small and large whole numbers, halves and other short
 * significands, denormals, values whose float32 sums round (2^24 + 1) or overflow (2^127).
 */
const stepArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2 ** 24 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 64 }).map((k) => k / 8) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }).map((k) => k * 2 ** -149) },
  { weight: 1, arbitrary: fc.float({ min: 0, max: Math.fround(3.4e38), noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 127, 2 ** 126, 2 ** 24 - 1, 2 ** 23 + 1, 0.1, 2 ** -126) },
);

/** Random shapes (N up to 40: the 16-wide, 4-wide and masked tail paths), ragged or not. */
const caseArb: fc.Arbitrary<Case> = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 40 }))
  .chain(([B, T, N]) =>
    fc.record({
      B: fc.constant(B),
      T: fc.constant(T),
      N: fc.constant(N),
      sub: fc.oneof(
        fc.array(stepArb, { minLength: B * T * N, maxLength: B * T * N }),
        // one kind of step for the whole case, so that the proof often holds
        stepArb.chain((kind) => fc.array(fc.constantFrom(0, kind, typeof kind === 'number' && kind < 2 ** 20 ? kind * 3 : kind), { minLength: B * T * N, maxLength: B * T * N })),
      ),
      groups: fc.option(fc.array(fc.integer({ min: 0, max: N }), { minLength: B * T, maxLength: B * T }), { nil: undefined }),
    }),
  );

describe('critical_steps_whole', () => {
  it('answers with the results of critical_steps and of JavaScript bit for bit, or declines', () => {
    let answered = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const whole = run('critical_steps_whole', c);
        expect([WHOLE_DONE, WHOLE_DECLINED]).toContain(whole.code);
        if (whole.code === WHOLE_DONE) {
          answered++;
          const precise = run('critical_steps', c);
          expect(precise.code).toBe(-1);
          expectSame(whole.out, precise.out, c.B);
          expectSame(whole.out, js(c), c.B);
        }
      }),
      { numRuns: 400 },
    );
    // the proof holds often enough on these inputs for the property to be tested
    expect(answered).toBeGreaterThan(100);
  });

  it('answers for whole-number steps in practice: 0 to 19 over 100 sub-agents', () => {
    const B = 50;
    const T = 4;
    const N = 100;
    const sub = Array.from({ length: B * T * N }, (_, i) => (i * 7919) % 20);
    const groups = Array.from({ length: B * T }, (_, i) => (i * 37) % (N + 1));
    for (const c of [{ B, T, N, sub, groups }, { B, T, N, sub, groups: undefined }]) {
      const whole = run('critical_steps_whole', c);
      expect(whole.code).toBe(WHOLE_DONE);
      expectSame(whole.out, js(c), B);
    }
  });

  it('declines sums that float32 would round or overflow, and steps it must not read as numbers', () => {
    const declines = (sub: number[], preciseCode = -1): void => {
      const c = { B: 1, T: 1, N: sub.length, sub, groups: undefined };
      expect(run('critical_steps_whole', c).code, `steps ${sub.join(', ')}`).toBe(WHOLE_DECLINED);
      expect(run('critical_steps', c).code).toBe(preciseCode);
    };
    declines([2 ** 24, 1]); // 2^24 + 1 rounds in float32
    declines([2 ** 24 - 1, 2 ** 24 - 1]); // a sum above 2^24 with a full significand
    // whole numbers, but the proof cannot see it over 40 sub-agents (it can over 32)
    declines(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 1 : 999)));
    expect(run('critical_steps_whole', { B: 1, T: 1, N: 32, sub: Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 1 : 999)), groups: undefined }).code).toBe(WHOLE_DONE);
    declines([2 ** 127, 2 ** 127]); // 2^128 overflows float32, not float64
    declines([0.1, 0.2]); // full significands
    declines([-0, 1]);
    declines([1, -1], 0);
    declines([1, Number.NaN], 0);
    declines([1, Number.POSITIVE_INFINITY], 0);
  });
});
