import { describe, expect, it } from 'vitest';
import { BUDGET_MODES, ParlInputError, applyBudget, parseBudgetMode, validateStages } from '../src/index.js';
import { messageOf } from './support.js';

// Stage critical steps 1+5 = 6, 1+9 = 10, 1+0 = 1: cumulative 6, 16, 17.
const STAGES = validateStages([
  { main_steps: 1, sub_steps: [3, 5, 2] },
  { main_steps: 1, sub_steps: [4, 9] },
  { main_steps: 1, sub_steps: [] },
]);

describe('applyBudget', () => {
  it('cuts at the first stage whose cumulative critical steps exceed K', () => {
    // K = 10: 6 ≤ 10, 16 > 10 → stage 1 is cut; stage 0 ran with 6 critical steps
    const cut = applyBudget(STAGES, 10);
    expect(cut).toEqual({ budget: 10, within_budget: false, budget_cut_stage: 1, stages_run: STAGES.slice(0, 1), critical_steps_run: 6 });
  });

  it('reaching K exactly is within the budget', () => {
    // K = 16: 16 is not > 16, 17 is → stage 2 cut
    expect(applyBudget(STAGES, 16).budget_cut_stage).toBe(2);
    expect(applyBudget(STAGES, 16).critical_steps_run).toBe(16);
    // K = 17: the whole episode fits
    const all = applyBudget(STAGES, 17);
    expect(all).toEqual({ budget: 17, within_budget: true, budget_cut_stage: null, stages_run: STAGES, critical_steps_run: 17 });
  });

  it('K smaller than the first stage runs nothing; K = 0 runs only zero-step stages', () => {
    expect(applyBudget(STAGES, 5.99)).toMatchObject({ within_budget: false, budget_cut_stage: 0, stages_run: [], critical_steps_run: 0 });
    const zeros = validateStages([{ main_steps: 0, sub_steps: [0] }, { main_steps: 0.5 }]);
    expect(applyBudget(zeros, 0)).toMatchObject({ budget_cut_stage: 1, critical_steps_run: 0 });
    expect(applyBudget([], 0)).toMatchObject({ within_budget: true, budget_cut_stage: null, critical_steps_run: 0 });
  });

  it('rejects a negative or non-finite budget', () => {
    expect(messageOf(() => applyBudget(STAGES, -1))).toBe('budget must be a finite number ≥ 0, got -1');
    expect(messageOf(() => applyBudget(STAGES, Number.POSITIVE_INFINITY))).toBe('budget must be a finite number ≥ 0, got Infinity');
    expect(messageOf(() => applyBudget(STAGES, Number.NaN))).toBe('budget must be a finite number ≥ 0, got NaN');
  });
});

describe('parseBudgetMode', () => {
  it('fail by default, truncate on request, anything else named', () => {
    expect(BUDGET_MODES).toEqual(['fail', 'truncate']);
    expect(parseBudgetMode(undefined)).toBe('fail');
    expect(parseBudgetMode('truncate')).toBe('truncate');
    expect(messageOf(() => parseBudgetMode('cut', '--on-budget'))).toBe('--on-budget must be one of "fail", "truncate", got "cut"');
  });
});
