import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { criticalSteps, criticalStepsBatch, criticalStepsBatchInputOf, CriticalStepsMeter, heaviestPath, stagesToDag, validateStages } from '@parl/core';
import { criticalStepsKernel, denseDags, heaviestPathKernel, initBackend, smoothCriticalStepsKernel } from '../src/index.js';
import { f32, stagedBatches } from './arbitraries.js';
import { maxRelativeError, TEST_BACKENDS, TOLERANCE } from './backends.js';

/** Random staged batches with a wait for every slot. */
const waitedBatches = stagedBatches.chain((input) =>
  fc
    .array(f32(0, 40), { minLength: input.subSteps.length, maxLength: input.subSteps.length })
    .map((w) => ({ ...input, subWait: Float32Array.from(w) })),
);

/** A pooled turn as the swarm runs it: `count` sub-agents of `steps` each, `slots` at a time, fed to core's meter. */
function pooledStages(turns: readonly { steps: readonly number[]; slots: number }[]) {
  const meter = new CriticalStepsMeter();
  for (const turn of turns) {
    meter.step();
    // Unit-time steps: at each instant those that end free their slots, then waiting ones start.
    let next = 0;
    let running: { end: number; agent: ReturnType<CriticalStepsMeter['startSubAgent']> }[] = [];
    let now = 0;
    while (next < turn.steps.length || running.length > 0) {
      for (const r of running.filter((x) => x.end <= now)) meter.endSubAgent(r.agent, true);
      running = running.filter((x) => x.end > now);
      while (running.length < turn.slots && next < turn.steps.length) {
        const steps = turn.steps[next++] as number;
        const agent = meter.startSubAgent();
        for (let s = 0; s < steps; s++) meter.step(agent);
        if (steps === 0) meter.endSubAgent(agent, true);
        else running.push({ end: now + steps, agent });
      }
      if (running.length > 0) now = Math.min(...running.map((r) => r.end));
    }
  }
  return meter;
}

describe.each(TEST_BACKENDS)('wait_steps (spec §2) on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('criticalStepsKernel takes core\'s subWait and equals criticalStepsBatch (relative error ≤ 1e-5)', () => {
    fc.assert(
      fc.property(waitedBatches, (input) => {
        const expected = criticalStepsBatch(input);
        const actual = criticalStepsKernel(input, { output: 'array' });
        expect(maxRelativeError(actual.critical_steps, expected.critical_steps)).toBeLessThanOrEqual(TOLERANCE);
        expect(maxRelativeError(actual.total_steps, expected.total_steps)).toBeLessThanOrEqual(TOLERANCE);
        expect(maxRelativeError(actual.parallelism, expected.parallelism)).toBeLessThanOrEqual(TOLERANCE);
      }),
      { numRuns: 30 },
    );
  });

  it('a pooled schedule: the meter, staged, DAG, batch and TensorFlow.js kernels give the same critical steps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ steps: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 10 }), slots: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 3 }),
        (turns) => {
          const meter = pooledStages(turns);
          const stages = validateStages(meter.stages());
          const staged = criticalSteps(meter.stages()).critical_steps;
          expect(staged).toBe(meter.criticalSteps);
          const dag = stagesToDag(stages);
          expect(heaviestPath(dag).weight).toBe(staged);
          const input = criticalStepsBatchInputOf([stages]);
          expect(criticalStepsBatch(input).critical_steps[0]).toBe(staged);
          // integers below 2^24 are exact in float32: every path gives the same number
          expect(criticalStepsKernel(input, { output: 'array' }).critical_steps[0]).toBe(staged);
          expect(criticalStepsKernel({ ...input, waitSteps: input.subWait ?? new Float64Array(input.subSteps.length) }, { output: 'array' }).critical_steps[0]).toBe(staged);
          expect(heaviestPathKernel({ ...denseDags([dag]) }, { output: 'array' }).weight[0]).toBe(staged);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('20 sub-agents of 3 steps, 2 at a time: 30 critical steps on the kernel too, not 3', () => {
    const input = criticalStepsBatchInputOf([validateStages(pooledStages([{ steps: Array.from({ length: 20 }, () => 3), slots: 2 }]).stages())]);
    const out = criticalStepsKernel(input, { output: 'array' });
    expect([out.critical_steps[0], out.total_steps[0]]).toEqual([31, 61]);
    const { subWait: _wait, ...unwaited } = input;
    expect(criticalStepsKernel(unwaited, { output: 'array' }).critical_steps[0]).toBe(4);
  });

  it('the smooth surrogate takes the waits too: 0 ≤ smooth − exact ≤ its bound', () => {
    fc.assert(
      fc.property(waitedBatches, (input) => {
        const exact = criticalStepsBatch(input).critical_steps;
        const smooth = smoothCriticalStepsKernel(input, 0.5, { output: 'array' });
        for (let b = 0; b < input.batch; b++) {
          const gap = (smooth.smooth_critical_steps[b] as number) - (exact[b] as number);
          expect(gap).toBeGreaterThanOrEqual(-1e-4 * Math.max(1, exact[b] as number));
          expect(gap).toBeLessThanOrEqual((smooth.gap_bound[b] as number) + 1e-4 * Math.max(1, exact[b] as number));
        }
      }),
      { numRuns: 20 },
    );
  });

  it('names a bad wait by its [b, t, i] index; padding is ignored', () => {
    const base = { batch: 1, stages: 1, width: 2, subSteps: [1, 2] };
    expect(() => criticalStepsKernel({ ...base, waitSteps: [0, -1] })).toThrow('waitSteps[0, 0, 1] must be a finite number ≥ 0, got -1');
    expect(() => criticalStepsKernel({ ...base, subWait: new Float32Array([Number.NaN, 0]) } as never)).toThrow('subWait[0, 0, 0] must be a finite number ≥ 0, got NaN');
    expect(() => criticalStepsKernel({ ...base, waitSteps: [0] })).toThrow('waitSteps.length must be 2 (shape [1, 1, 2]), got 1');
    expect(criticalStepsKernel({ ...base, groupSizes: [1], waitSteps: [4, Number.NaN] }, { output: 'array' }).critical_steps[0]).toBe(1 + 4 + 1);
  });
});

describe.each(TEST_BACKENDS)('nested entries (spec §5.2) on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('takes core\'s subWork: a nested entry adds its own total steps to the work, as criticalStepsBatch does', () => {
    const lead = { stages: [{ main_steps: 1, sub_steps: [2, 2] }, { main_steps: 1 }], finished: true, wait_steps: 1 };
    const input = criticalStepsBatchInputOf([validateStages([{ main_steps: 1, sub_steps: [3, lead] }, { main_steps: 1 }])]);
    const core = criticalStepsBatch(input);
    const out = criticalStepsKernel(input, { output: 'array' });
    expect([out.critical_steps[0], out.total_steps[0]]).toEqual([core.critical_steps[0], core.total_steps[0]]);
    expect([out.critical_steps[0], out.total_steps[0]]).toEqual([1 + 1 + 4 + 1, 1 + 3 + 6 + 1]);
    expect(() => criticalStepsKernel({ batch: 1, stages: 1, width: 1, subSteps: [1], workSteps: [-2] })).toThrow('workSteps[0, 0, 0] must be a finite number ≥ 0, got -2');
  });
});
