import { describe, expect, it } from 'vitest';
import { ParlInputError, computeReward, labelCriticalSteps, labelReward, resolveRewardConfig } from '../src/index.js';
import { messageOf, SPEC_RECORD } from './support.js';

/** The spec §5 example record, plus a field the spec does not know. */
const RECORD = { ...SPEC_RECORD, model: 'k2.5' };

describe('labelReward', () => {
  it('keeps every field and adds the spec §2 and §3 fields', () => {
    const out = labelReward(RECORD);
    expect(out).toMatchObject(RECORD);
    expect(out).toMatchObject(computeReward(RECORD));
    // critical 6 + 10 + 1 = 17, total 11 + 14 + 1 = 26 (see critical-steps.test.ts)
    expect(out).toMatchObject({ critical_steps: 17, total_steps: 26, parallelism: 26 / 17, num_stages: 3, max_width: 3, mean_width: 2.5 });
    expect(out.total_reward).toBeCloseTo(0.8525, 15);
  });

  it('overwrites stale computed fields and adds no §2 fields without stages', () => {
    const out = labelReward({ r_perf: 0.5, total_reward: 99, critical_steps: 3 });
    // step 0: λ = 0.1; no sub-agents → r_parallel = r_finish = 0 → total = r_perf
    expect(out.total_reward).toBe(0.5);
    expect(out['critical_steps']).toBe(3);
    expect('parallelism' in out).toBe(false);
  });

  it('names the record in every error, including a missing r_perf', () => {
    expect(messageOf(() => labelReward({ num_subagents: 3 }, {}, 'line 5'))).toBe(
      'line 5: r_perf must be given: r_perf, or success (with optional quality), or trajectory_features with success, got undefined (missing)',
    );
    expect(messageOf(() => labelReward({ r_perf: 1, stages: [{ main_steps: -1 }] }, {}, 'line 9'))).toBe(
      'line 9: stages[0].main_steps must be a finite number ≥ 0, got -1',
    );
    expect(messageOf(() => labelReward({ num_subagents: 3 }))).toMatch(/^r_perf must be given/);
  });

  it('takes a resolved config and options', () => {
    const cfg = resolveRewardConfig({ step: 10000 });
    expect(labelReward(RECORD, cfg).total_reward).toBe(0.8);
    expect(labelReward(RECORD, { budget: 10 }).r_perf).toBe(0);
  });
});

describe('labelCriticalSteps', () => {
  it('adds the spec §2 fields and keeps the others; needs no r_perf', () => {
    const { success: _s, quality: _q, ...noPerf } = RECORD;
    const out = labelCriticalSteps(noPerf);
    expect(out).toMatchObject(noPerf);
    expect(out).toMatchObject({ critical_steps: 17, total_steps: 26, parallelism: 26 / 17, num_stages: 3, max_width: 3 });
    expect('within_budget' in out).toBe(false);
  });

  it('with a budget under fail: the whole episode, flagged', () => {
    // cumulative 6, 16, 17: K = 10 cuts stage 1
    expect(labelCriticalSteps(RECORD, { budget: 10 })).toMatchObject({ critical_steps: 17, within_budget: false, budget_cut_stage: 1 });
    expect(labelCriticalSteps(RECORD, { budget: 17 })).toMatchObject({ critical_steps: 17, within_budget: true, budget_cut_stage: null });
  });

  it('with a budget under truncate: only the stages that ran', () => {
    // stage 0 only: critical 1 + 5 = 6, total 1 + 10 = 11, width 3
    expect(labelCriticalSteps(RECORD, { budget: 10, onBudget: 'truncate' })).toMatchObject({
      critical_steps: 6,
      total_steps: 11,
      parallelism: 11 / 6,
      num_stages: 1,
      max_width: 3,
      within_budget: false,
      budget_cut_stage: 1,
    });
  });

  it('errors: no stages, bad budget, bad mode, bad record', () => {
    expect(messageOf(() => labelCriticalSteps({ r_perf: 1 }, {}, 'line 3'))).toBe(
      'line 3: stages must be an array of stages (needed for critical steps), got undefined (missing)',
    );
    expect(messageOf(() => labelCriticalSteps(RECORD, { budget: -2 }))).toBe('budget must be a finite number ≥ 0, got -2');
    expect(messageOf(() => labelCriticalSteps(RECORD, { budget: 2, onBudget: 'drop' as never }))).toBe(
      'onBudget must be one of "fail", "truncate", got "drop"',
    );
    expect(messageOf(() => labelCriticalSteps({ stages: [{ main_steps: 1, sub_steps: [Number.NaN] }] }, {}, 'line 8'))).toBe(
      'line 8: stages[0].sub_steps[0] must be a finite number ≥ 0, got NaN',
    );
  });
});

describe('labelled records keep every field of the input', () => {
  it('keeps a JSON "__proto__" key as a plain field and leaves the prototype alone', () => {
    const record = JSON.parse('{"__proto__": {"polluted": true}, "r_perf": 0.5, "stages": [{"main_steps": 1, "sub_steps": [2]}]}') as Record<string, unknown>;
    const out = labelReward(record);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(out)).__proto__).toEqual({ polluted: true });
    expect(out.critical_steps).toBe(3);
    const cs = labelCriticalSteps(record, { budget: 1 });
    expect(Object.getPrototypeOf(cs)).toBe(Object.prototype);
    expect(cs.within_budget).toBe(false);
  });
});
