import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateRewardBatch,
  allocateRewardBatchOutput,
  resolveRewardConfig,
  REWARD_BATCH_FIELDS,
  rewardBatch,
  type RewardBatchInput,
  type RewardBatchOutput,
  type RewardConfig,
} from '../../src/index.js';
import { rewardWasm } from '../../src/batch/reward-wasm.js';
import { arenaOf } from '../../src/batch/wasm-arena.js';
import { episodeArb, type Episode } from './reward-episodes.js';

// The WebAssembly SIMD reward kernel against the JavaScript one (kernel: 'js'), bit for bit,
// called directly (so a kernel that declined would fail the test) and through rewardBatch.

/** Schedules the kernel computes (linear, constant) and one it leaves to JavaScript (cosine). */
const scheduleArb = fc.oneof(
  fc.constantFrom('linear:0.1:0:10000', 'constant:0.3', 'constant:-0', 'linear:-2:3:77.5', 'cosine:0.1:0:5000', 'step:0.1,0.05,0:3000,6000'),
  fc
    .tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: 1e-3, max: 1e5, noNaN: true }))
    .map(([from, to, steps]) => `linear:${from}:${to}:${steps}`),
);

const configArb: fc.Arbitrary<RewardConfig> = fc.record(
  {
    lambda1: scheduleArb,
    lambda2: scheduleArb,
    maxSubagents: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.double({ min: 1e-3, max: 1e3, noNaN: true })),
    step: fc.integer({ min: 0, max: 20000 }),
  },
  { requiredKeys: ['maxSubagents'] },
);

/** Which inputs are given and as which float type. */
const layoutArb = fc.record({
  f32: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  assigned: fc.boolean(),
  completed: fc.boolean(),
  steps: fc.boolean(),
});

type Layout = { f32: boolean[]; assigned: boolean; completed: boolean; steps: boolean };

function inputOf(episodes: Episode[], layout: Layout): RewardBatchInput {
  // completed has assigned's type, so that completed ≤ assigned survives rounding to float32
  const column = (i: number, values: number[]) => (layout.f32[i === 2 ? 1 : i] ? Float32Array.from(values) : Float64Array.from(values));
  const assigned = column(1, episodes.map((e) => e.assigned));
  const completed = column(2, episodes.map((e, i) => Math.min(e.completed, assigned[i] as number)));
  return {
    numSubagents: column(0, episodes.map((e) => e.n)),
    ...(layout.assigned ? { assignedSubtasks: assigned } : {}),
    ...(layout.assigned && layout.completed ? { completedSubtasks: completed } : {}),
    rPerf: column(3, episodes.map((e) => e.perf)),
    ...(layout.steps ? { trainingStep: column(4, episodes.map((e) => e.step)) } : {}),
  };
}

function expectSame(got: RewardBatchOutput, want: RewardBatchOutput, size: number): void {
  for (const field of REWARD_BATCH_FIELDS) {
    for (let i = 0; i < size; i++) expect(Object.is(got[field][i], want[field][i]), `${field}[${i}]: ${got[field][i]} vs ${want[field][i]}`).toBe(true);
  }
}

describe('rewardWasm', () => {
  it('equals the JavaScript kernel bit for bit on random input, float32 and float64 columns, any schedule', () => {
    fc.assert(
      fc.property(fc.array(episodeArb, { minLength: 2, maxLength: 41 }), configArb, layoutArb, (episodes, config, layout) => {
        const input = inputOf(episodes, layout);
        const cfg = resolveRewardConfig(config);
        const want = rewardBatch({ ...input, kernel: 'js' }, cfg);
        // outputs copied out of scratch memory, and written in place
        const plain = allocateRewardBatchOutput(episodes.length, 'js');
        expect(rewardWasm(episodes.length, input, cfg, plain)).toBe(true);
        expectSame(plain, want, episodes.length);
        const inPlace = allocateRewardBatchOutput(episodes.length);
        expect(arenaOf(inPlace.total_reward)).toBeDefined();
        expect(rewardWasm(episodes.length, input, cfg, inPlace)).toBe(true);
        expectSame(inPlace, want, episodes.length);
        expectSame(rewardBatch({ ...input, kernel: 'wasm' }, cfg), want, episodes.length);
      }),
      { numRuns: 300 },
    );
  });

  it('equals the JavaScript kernel with inputs and outputs from allocateRewardBatch, read and written in place', () => {
    fc.assert(
      fc.property(fc.array(episodeArb, { minLength: 2, maxLength: 41 }), configArb, fc.constantFrom('float32' as const, 'float64' as const), (episodes, config, precision) => {
        const { input, out } = allocateRewardBatch(episodes.length, precision);
        expect(input.rPerf).toBeInstanceOf(precision === 'float32' ? Float32Array : Float64Array);
        expect(arenaOf(input.rPerf)).toBeDefined();
        expect(arenaOf(input.rPerf)).toBe(arenaOf(out.total_reward));
        input.numSubagents.set(episodes.map((e) => e.n));
        input.assignedSubtasks.set(episodes.map((e) => e.assigned));
        input.completedSubtasks.set(episodes.map((e) => e.completed));
        input.rPerf.set(episodes.map((e) => e.perf));
        input.trainingStep.set(episodes.map((e) => e.step));
        const cfg = resolveRewardConfig(config);
        const copies = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v.slice()])) as unknown as RewardBatchInput;
        const want = rewardBatch({ ...copies, kernel: 'js' }, cfg);
        expect(rewardWasm(episodes.length, input, cfg, out)).toBe(true);
        expectSame(out, want, episodes.length);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves the outputs past the batch alone (an odd batch reuses the pair before it)', () => {
    const out = allocateRewardBatchOutput(8);
    out.total_reward.fill(-7);
    const input = { numSubagents: new Float64Array([10, 20, 30]), rPerf: new Float32Array([0.5, 0.25, 1]) };
    expect(rewardWasm(3, input, resolveRewardConfig({ step: 0 }), out)).toBe(true);
    expect(Array.from(out.total_reward)).toEqual([...Array.from(rewardBatch({ ...input, kernel: 'js' }, { step: 0 }).total_reward), -7, -7, -7, -7, -7]);
  });

  it('declines where it does not apply: the log shape, one episode, plain arrays or integer arrays', () => {
    const out = allocateRewardBatchOutput(2, 'js');
    const floats = { numSubagents: new Float64Array([1, 2]), rPerf: new Float64Array([0, 0]) };
    expect(rewardWasm(2, floats, resolveRewardConfig({ parallelShape: 'log' }), out)).toBe(false);
    expect(rewardWasm(1, { numSubagents: new Float64Array([1]), rPerf: new Float64Array([0]) }, resolveRewardConfig({}), out)).toBe(false);
    expect(rewardWasm(2, { ...floats, numSubagents: [1, 2] }, resolveRewardConfig({}), out)).toBe(false);
    expect(rewardWasm(2, { ...floats, assignedSubtasks: new Int32Array([1, 2]) }, resolveRewardConfig({}), out)).toBe(false);
  });

  it('declines an invalid value, and rewardBatch then names the first one as the JavaScript kernel does', () => {
    const bad = fc.constantFrom(-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
    fc.assert(
      fc.property(fc.array(episodeArb, { minLength: 2, maxLength: 17 }), layoutArb, fc.nat(4), fc.nat(), bad, (episodes, layout, column, row, value) => {
        const input = inputOf(episodes, { ...layout, assigned: true, completed: true, steps: true });
        const names = ['numSubagents', 'assignedSubtasks', 'completedSubtasks', 'rPerf', 'trainingStep'] as const;
        const target = input[names[column] as (typeof names)[number]] as Float32Array | Float64Array;
        target[row % episodes.length] = value;
        const cfg = resolveRewardConfig({});
        let jsError: unknown;
        try {
          rewardBatch({ ...input, kernel: 'js' }, cfg);
        } catch (err) {
          jsError = err;
        }
        // -1 in rPerf is valid; everything else here is not
        expect(rewardWasm(episodes.length, input, cfg, allocateRewardBatchOutput(episodes.length, 'js'))).toBe(jsError === undefined);
        if (jsError !== undefined) expect(() => rewardBatch({ ...input, kernel: 'wasm' }, cfg)).toThrow((jsError as Error).message);
      }),
      { numRuns: 200 },
    );
  });
});

describe('allocateRewardBatch', () => {
  it('gives five zeroed columns of the precision and the nine outputs, in one WebAssembly memory unless the JavaScript kernel is chosen', () => {
    const { input, out } = allocateRewardBatch(3, 'float32');
    expect(Object.keys(input).sort()).toEqual(['assignedSubtasks', 'completedSubtasks', 'numSubagents', 'rPerf', 'trainingStep']);
    for (const column of Object.values(input)) {
      expect(column).toBeInstanceOf(Float32Array);
      expect(Array.from(column)).toEqual([0, 0, 0]);
      expect(arenaOf(column)).toBe(arenaOf(out.lambda2));
    }
    expect(allocateRewardBatch(3).input.rPerf).toBeInstanceOf(Float64Array);
    const plain = allocateRewardBatch(3, 'float64', 'js');
    expect([arenaOf(plain.input.rPerf), arenaOf(plain.out.total_reward)]).toEqual([undefined, undefined]);
    expect(() => allocateRewardBatch(3, 'float16' as never)).toThrow(`precision must be 'float32' or 'float64', got "float16"`);
  });
});

describe('allocateRewardBatchOutput', () => {
  it('gives nine zeroed float64 arrays of the size, in WebAssembly memory unless the JavaScript kernel is chosen', () => {
    const out = allocateRewardBatchOutput(5);
    for (const field of REWARD_BATCH_FIELDS) {
      expect(out[field]).toBeInstanceOf(Float64Array);
      expect(Array.from(out[field])).toEqual([0, 0, 0, 0, 0]);
      expect(arenaOf(out[field])).toBe(arenaOf(out.total_reward));
    }
    expect(arenaOf(out.total_reward)).toBeDefined();
    expect(arenaOf(allocateRewardBatchOutput(5, 'js').total_reward)).toBeUndefined();
    expect(() => allocateRewardBatchOutput(-1)).toThrow('size');
  });
});
