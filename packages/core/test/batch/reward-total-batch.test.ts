import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateRewardBatch,
  REWARD_BATCH_FIELDS,
  resolveRewardConfig,
  rewardBatch,
  rewardTotalBatch,
  type RewardBatchInput,
  type RewardConfig,
} from '../../src/index.js';
import { rewardWasm } from '../../src/batch/reward-wasm.js';
import { arenaOf } from '../../src/batch/wasm-arena.js';
import { episodeArb, type Episode } from './reward-episodes.js';
import { messageOf } from '../support.js';

// rewardTotalBatch (and the WebAssembly kernel with `totalOnly`) against rewardBatch's
// total_reward on the JavaScript kernel, bit for bit.

/** Schedules the kernel computes (linear, constant) and ones it leaves to JavaScript (cosine, step). */
const scheduleArb = fc.constantFrom('linear:0.1:0:10000', 'constant:0.3', 'linear:-2:3:77.5', 'cosine:0.1:0:5000', 'step:0.1,0.05,0:3000,6000');

const configArb: fc.Arbitrary<RewardConfig> = fc.record(
  {
    lambda1: scheduleArb,
    lambda2: scheduleArb,
    maxSubagents: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.double({ min: 1e-3, max: 1e3, noNaN: true })),
    step: fc.integer({ min: 0, max: 20000 }),
    parallelShape: fc.constantFrom('linear' as const, 'log' as const),
  },
  { requiredKeys: ['maxSubagents'] },
);

/** Which inputs are given, and whether they are float32 (else float64) columns. */
const layoutArb = fc.record({ f32: fc.boolean(), assigned: fc.boolean(), steps: fc.boolean() });

function inputOf(episodes: Episode[], layout: { f32: boolean; assigned: boolean; steps: boolean }): RewardBatchInput {
  const column = (values: number[]) => (layout.f32 ? Float32Array.from(values) : Float64Array.from(values));
  const assigned = column(episodes.map((e) => e.assigned));
  return {
    numSubagents: column(episodes.map((e) => e.n)),
    ...(layout.assigned ? { assignedSubtasks: assigned, completedSubtasks: column(episodes.map((e, i) => Math.min(e.completed, assigned[i] as number))) } : {}),
    rPerf: column(episodes.map((e) => e.perf)),
    ...(layout.steps ? { trainingStep: column(episodes.map((e) => e.step)) } : {}),
  };
}

function expectSameTotals(got: Float64Array, want: Float64Array, size: number): void {
  let first = -1;
  for (let i = 0; i < size && first < 0; i++) if (!Object.is(got[i], want[i])) first = i;
  expect(first, first < 0 ? '' : `total_reward[${first}]: ${got[first]} vs ${want[first]}`).toBe(-1);
}

describe('rewardTotalBatch', () => {
  it("equals rewardBatch's total_reward bit for bit, on every kernel, copied out or written in place", () => {
    fc.assert(
      fc.property(fc.array(episodeArb, { minLength: 2, maxLength: 41 }), configArb, layoutArb, (episodes, config, layout) => {
        const size = episodes.length;
        const input = inputOf(episodes, layout);
        const cfg = resolveRewardConfig(config);
        const want = rewardBatch({ ...input, kernel: 'js' }, cfg).total_reward;
        for (const kernel of ['auto', 'wasm', 'js'] as const) expectSameTotals(rewardTotalBatch({ ...input, kernel }, cfg), want, size);
        // the WebAssembly kernel itself (it applies to the linear r_parallel): into a plain
        // array (scratch memory, copied out) and into a total that lives in an arena
        const applies = cfg.parallelShape === 'linear';
        const plain = new Float64Array(size);
        expect(rewardWasm(size, input, cfg, plain)).toBe(applies);
        if (applies) expectSameTotals(plain, want, size);
        const { out } = allocateRewardBatch(size, 'float32');
        expect(rewardWasm(size, input, cfg, out.total_reward)).toBe(applies);
        if (applies) expectSameTotals(out.total_reward, want, size);
      }),
      { numRuns: 300 },
    );
  });

  it('reads inputs and writes the total in place in allocateRewardBatch memory, and no other output', () => {
    fc.assert(
      fc.property(fc.array(episodeArb, { minLength: 2, maxLength: 41 }), configArb, (episodes, config) => {
        const size = episodes.length;
        const { input, out } = allocateRewardBatch(size, 'float64');
        input.numSubagents.set(episodes.map((e) => e.n));
        input.assignedSubtasks.set(episodes.map((e) => e.assigned));
        input.completedSubtasks.set(episodes.map((e) => e.completed));
        input.rPerf.set(episodes.map((e) => e.perf));
        input.trainingStep.set(episodes.map((e) => e.step));
        for (const field of REWARD_BATCH_FIELDS) out[field].fill(-7);
        const cfg = resolveRewardConfig({ ...config, parallelShape: 'linear' });
        const copies = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v.slice()])) as unknown as RewardBatchInput;
        const want = rewardBatch({ ...copies, kernel: 'js' }, cfg).total_reward;
        expect(arenaOf(out.total_reward)).toBe(arenaOf(input.rPerf));
        expect(rewardWasm(size, input, cfg, out.total_reward)).toBe(true);
        expectSameTotals(out.total_reward, want, size);
        for (const field of REWARD_BATCH_FIELDS) {
          if (field !== 'total_reward') expect(out[field].every((v) => v === -7), field).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same totals and errors on the JavaScript path for batches of several of its slices (65,536 episodes)', () => {
    const size = 65_536 * 2 + 5;
    const numSubagents = Float32Array.from({ length: size }, (_, i) => i % 121);
    const completedSubtasks = Float32Array.from({ length: size }, (_, i) => (i * 7) % ((i % 121) + 1));
    const rPerf = Float64Array.from({ length: size }, (_, i) => ((i * 37) % 1000) / 999);
    const trainingStep = Array.from({ length: size }, (_, i) => (i * 13) % 12_000); // a plain array: sliced, not viewed
    const input = { numSubagents, assignedSubtasks: numSubagents, completedSubtasks, rPerf, trainingStep };
    for (const config of [{}, { parallelShape: 'log' as const }, { lambda1: 'cosine:0.1:0:5000', step: 700 }]) {
      const want = rewardBatch({ ...input, kernel: 'js' }, config).total_reward;
      for (const kernel of ['js', 'auto'] as const) expectSameTotals(rewardTotalBatch({ ...input, kernel }, config), want, size);
    }
    // a bad r_perf in the second slice and a bad step in the third: rewardBatch names the step
    const badPerf = Float64Array.from(rPerf);
    badPerf[70_000] = Number.NaN;
    const badSteps = trainingStep.slice();
    badSteps[140_000] = -1;
    for (const bad of [{ ...input, rPerf: badPerf }, { ...input, rPerf: badPerf, trainingStep: badSteps }]) {
      const expected = messageOf(() => rewardBatch({ ...bad, kernel: 'js' }));
      expect(messageOf(() => rewardTotalBatch({ ...bad, kernel: 'js' }))).toBe(expected);
    }
  });

  it('names a bad input as rewardBatch does, and refuses an output that is too short', () => {
    const input = { numSubagents: new Float32Array(600).fill(3), rPerf: new Float32Array(600).fill(0.5) };
    input.rPerf[517] = Number.NaN;
    const expected = messageOf(() => rewardBatch({ ...input, kernel: 'js' }));
    expect(expected).toContain('rPerf[517]');
    for (const kernel of ['auto', 'wasm', 'js'] as const) expect(messageOf(() => rewardTotalBatch({ ...input, kernel }))).toBe(expected);
    expect(messageOf(() => rewardTotalBatch({ numSubagents: [1, 2], rPerf: [0, 0] }, {}, new Float64Array(1)))).toBe('out.length must be at least 2, got 1');
  });
});
