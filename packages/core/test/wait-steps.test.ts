import { describe, expect, it } from 'vitest';
import {
  applyBudget,
  criticalSteps,
  criticalStepsBatch,
  criticalStepsBatchInputOf,
  heaviestPath,
  labelCriticalSteps,
  labelReward,
  recordFieldHints,
  stagesToDag,
  validateRecord,
  validateStages,
  type StageRecord,
} from '../src/index.js';
import { messageOf } from './support.js';

/** 20 sub-agents of 3 steps, two slots: ten rounds, the k-th pair waiting 3k steps (spec §2's example). */
const pooled: StageRecord[] = [
  { main_steps: 1, sub_steps: Array.from({ length: 20 }, (_, i) => ({ steps: 3, finished: true, ...(i >= 2 ? { wait_steps: 3 * Math.floor(i / 2) } : {}) })) },
  { main_steps: 1, sub_steps: [] },
];

describe('wait_steps (spec §2, §5)', () => {
  it('weighs W + steps in its stage\'s max; work excludes waiting', () => {
    expect(criticalSteps(pooled)).toMatchObject({ critical_steps: 1 + 30 + 1, total_steps: 2 + 60, max_width: 20 });
    // Without the waits the same sub-agents would count 3: the latency the pool hid.
    const unwaited = pooled.map((s) => ({ main_steps: s.main_steps, sub_steps: (s.sub_steps ?? []).map(() => 3) }));
    expect(criticalSteps(unwaited).critical_steps).toBe(5);
    // A wait below the group's heaviest member changes nothing.
    expect(criticalSteps([{ main_steps: 1, sub_steps: [9, { steps: 2, wait_steps: 4 }] }]).critical_steps).toBe(10);
  });

  it('a nested entry (spec §5.2) weighs W + its own critical steps', () => {
    const stages: StageRecord[] = [{ main_steps: 1, sub_steps: [4, { stages: [{ main_steps: 1, sub_steps: [2, 3] }], wait_steps: 4, finished: true }] }];
    expect(criticalSteps(stages)).toMatchObject({ critical_steps: 1 + 4 + 4, total_steps: 1 + 4 + 6 });
    expect(heaviestPath(stagesToDag(validateStages(stages))).weight).toBe(9);
  });

  it('is an input error when negative, not finite or not a number, naming the field', () => {
    const at = (wait: unknown) => messageOf(() => criticalSteps([{ main_steps: 1, sub_steps: [{ steps: 1, wait_steps: wait as number }] }]));
    expect(at(-3)).toBe('stages[0].sub_steps[0].wait_steps must be a finite number ≥ 0 (the steps of its group that ran before it started), got -3');
    expect(at(Number.POSITIVE_INFINITY)).toMatch(/^stages\[0\]\.sub_steps\[0\]\.wait_steps must be a finite number ≥ 0.*got Infinity$/);
    expect(at(Number.NaN)).toMatch(/wait_steps must be a finite number ≥ 0.*got NaN$/);
    expect(at('2')).toMatch(/wait_steps must be a finite number ≥ 0.*got "2"$/);
    expect(messageOf(() => validateRecord({ stages: [{ main_steps: 1, sub_steps: [{ stages: [], wait_steps: -1 }] }] }, 'line 4'))).toMatch(
      /^line 4: stages\[0\]\.sub_steps\[0\]\.wait_steps must be a finite number ≥ 0/,
    );
  });

  it('a misspelt wait_step is pointed at wait_steps under strict', () => {
    expect(recordFieldHints({ stages: [{ main_steps: 1, sub_steps: [{ steps: 1, wait_step: 2 }] }] })[0]).toMatchObject({ field: 'stages[0].sub_steps[0].wait_step', suggestion: 'wait_steps' });
  });

  it('labelling keeps wait_steps and is idempotent (spec §5.1)', () => {
    const once = labelCriticalSteps({ id: 'p', stages: pooled });
    expect(once.critical_steps).toBe(32);
    expect(labelCriticalSteps(once)).toEqual(once);
    const rewarded = labelReward({ id: 'p', stages: pooled, r_perf: 1 }, { step: 0 });
    expect(labelReward(labelCriticalSteps(rewarded), { step: 0 })).toEqual(rewarded);
    expect((rewarded.stages as StageRecord[])[0]?.sub_steps?.[5]).toEqual({ steps: 3, finished: true, wait_steps: 6 });
  });

  it('a budget counts the waits: the pooled turn is cut at K = 10', () => {
    expect(applyBudget(validateStages(pooled), 31)).toMatchObject({ within_budget: false, budget_cut_stage: 1 });
    expect(applyBudget(validateStages(pooled), 32)).toMatchObject({ within_budget: true, critical_steps_run: 32 });
    expect(applyBudget(validateStages(pooled), 10)).toMatchObject({ within_budget: false, budget_cut_stage: 0, critical_steps_run: 0 });
  });

  it('the batch kernels take subWait and give the one-episode numbers on every kernel', () => {
    const episodes = [validateStages(pooled), validateStages([{ main_steps: 1, sub_steps: [2, 5] }])];
    const input = criticalStepsBatchInputOf(episodes);
    expect(input.subWait).toBeInstanceOf(Float64Array);
    for (const kernel of ['js', 'wasm', 'auto'] as const) {
      const out = criticalStepsBatch({ ...input, subSteps: Float32Array.from(input.subSteps), kernel });
      expect(Array.from(out.critical_steps)).toEqual([32, 6]);
      expect(Array.from(out.total_steps)).toEqual([62, 8]);
      expect(out.parallelism[0]).toBe(62 / 32);
    }
    // Plain episodes stage no waits, so they keep the fast kernels.
    expect(criticalStepsBatchInputOf([episodes[1] as never]).subWait).toBeUndefined();
  });

  it('a bad subWait entry is named by its index', () => {
    const subWait = new Float64Array([0, -1]);
    expect(messageOf(() => criticalStepsBatch({ batch: 1, stages: 1, width: 2, subSteps: new Float64Array([1, 1]), subWait }))).toBe('subWait[0, 0, 1] must be a finite number ≥ 0, got -1');
    expect(messageOf(() => criticalStepsBatch({ batch: 1, stages: 1, width: 2, subSteps: new Float64Array([1, 1]), subWait: new Float64Array(3) }))).toMatch(/^subWait\.length must be 2/);
  });
});
