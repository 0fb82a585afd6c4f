import { describe, expect, it } from 'vitest';
import { applyBudget, budgetToReachTarget, ParlInputError, validateStages } from '../src/index.js';

describe('budgetToReachTarget', () => {
  const episodes = [
    { critical_steps: 4, r_perf: 1 },
    { critical_steps: 9, r_perf: 0.5 },
    { critical_steps: 9, r_perf: 1 },
    { critical_steps: 20, r_perf: 0 },
  ];

  it('gives the smallest budget whose mean r_perf (0 past the budget) reaches the target', () => {
    expect(budgetToReachTarget(episodes, 0.25)).toBe(4);
    expect(budgetToReachTarget(episodes, 0.3)).toBe(9);
    expect(budgetToReachTarget(episodes, 0.625)).toBe(9);
    expect(budgetToReachTarget(episodes, 0.7)).toBeNull();
    expect(budgetToReachTarget([], 0.1)).toBeNull();
  });

  it('agrees with core\'s budget cut: at the answer every counted episode is within budget', () => {
    const k = budgetToReachTarget(episodes, 0.5) as number;
    const stagesOf = (cs: number) => validateStages([{ main_steps: cs, sub_steps: [] }]);
    const mean = episodes.reduce((s, e) => s + (applyBudget(stagesOf(e.critical_steps), k).within_budget ? e.r_perf : 0), 0) / episodes.length;
    expect(mean).toBeGreaterThanOrEqual(0.5);
  });

  it('rejects bad input naming the field', () => {
    expect(() => budgetToReachTarget([{ critical_steps: -1, r_perf: 1 }], 0.5)).toThrow(ParlInputError);
    expect(() => budgetToReachTarget(episodes, Number.NaN)).toThrow(/target/);
  });
});
