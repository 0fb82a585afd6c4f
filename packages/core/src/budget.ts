/**
 * Critical-step budgets (spec §2): cutting an episode at the first stage whose cumulative
 * critical steps exceed the budget K.
 *
 * @module
 */
import { requireNonNegative, requireOneOf } from './errors.js';
import type { NormalizedStage } from './records.js';
import { stageCriticalTerm } from './stage-sums.js';

/** What a budget cut means for r_perf: `fail` (r_perf = 0, the default) or `truncate` (score what finished). */
export type BudgetMode = 'fail' | 'truncate';

/** The budget modes, as accepted on the command line and in configs. */
export const BUDGET_MODES: readonly BudgetMode[] = ['fail', 'truncate'];

/**
 * The outcome of running an episode under a critical-step budget, under the names `parl
 * critical-steps --budget` writes (`within_budget`, `budget_cut_stage`): a result of PARL
 * quantities carries spec names in TypeScript as in JSON (CONTRIBUTING.md, "Names").
 */
export interface BudgetCut {
  /** The budget K. */
  readonly budget: number;
  /** True when the whole episode fits: no stage's cumulative critical steps exceed K. */
  readonly within_budget: boolean;
  /** Index of the first stage whose cumulative critical steps exceed K, or null when none does. */
  readonly budget_cut_stage: number | null;
  /** The stages that finished before the cut (all stages when within budget). */
  readonly stages_run: readonly NormalizedStage[];
  /** Critical steps of the stages that finished before the cut. */
  readonly critical_steps_run: number;
}

/**
 * Cut a staged episode at a critical-step budget. Stage t is cut when
 * Σ_{u ≤ t} (S_main^(u) + max_i (W_i + S_sub,i^(u))) > K (W_i a sub-agent's `wait_steps`); it and
 * every later stage do not run.
 *
 * @param stages - validated stages
 * @param budget - K, finite and ≥ 0
 * @throws {@link ParlInputError} when the budget is negative or not finite
 */
export function applyBudget(stages: readonly NormalizedStage[], budget: number): BudgetCut {
  requireNonNegative(budget, 'budget');
  let cumulative = 0;
  for (let t = 0; t < stages.length; t++) {
    const stage = stages[t] as NormalizedStage;
    // The same term, added in the same order, as critical steps (stage-sums.ts): the cut agrees
    // with critical steps bit for bit, waiting (spec §2 wait_steps) included.
    const next = cumulative + stageCriticalTerm(stage);
    if (next > budget) {
      return { budget, within_budget: false, budget_cut_stage: t, stages_run: stages.slice(0, t), critical_steps_run: cumulative };
    }
    cumulative = next;
  }
  return { budget, within_budget: true, budget_cut_stage: null, stages_run: stages, critical_steps_run: cumulative };
}

/** Validate a budget mode from untrusted input (flag or config); undefined gives the default `fail`. */
export function parseBudgetMode(value: unknown, field = 'onBudget'): BudgetMode {
  if (value === undefined) return 'fail';
  return requireOneOf(value, field, BUDGET_MODES);
}
