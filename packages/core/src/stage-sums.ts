/**
 * The critical-steps sum of spec §2, written once: each stage's term
 * S_main + max_i (W_i + S_sub,i) (W_i a sub-agent's `wait_steps`, 0 when absent) and its work
 * S_main + Σ_i S_sub,i (waiting is not work). Staged critical steps, nested entries' contributions
 * (spec §5.2), budgets and the live meter all add these terms, in stage order, so that they agree
 * bit for bit.
 *
 * @module
 */
import type { NormalizedStage } from './normalized-stage.js';

/**
 * S_main + max_i (W_i + S_sub,i) of one validated stage: what it adds to critical steps (max over
 * an empty group is 0).
 */
export function stageCriticalTerm(stage: NormalizedStage): number {
  const sub = stage.sub;
  const wait = stage.wait;
  let stageMax = 0;
  if (wait === undefined) {
    for (let i = 0; i < sub.length; i++) {
      const s = sub[i] as number;
      if (s > stageMax) stageMax = s;
    }
  } else {
    for (let i = 0; i < sub.length; i++) {
      const s = (wait[i] as number) + (sub[i] as number);
      if (s > stageMax) stageMax = s;
    }
  }
  return stage.main + stageMax;
}

/**
 * S_main + Σ_i work_i of one validated stage: what it adds to total steps. A nested entry's work
 * is its own total steps; waiting is not work.
 */
export function stageWorkTerm(stage: NormalizedStage): number {
  const work = stage.work ?? stage.sub;
  let stageSum = 0;
  for (let i = 0; i < work.length; i++) stageSum += work[i] as number;
  return stage.main + stageSum;
}

/**
 * Critical and total steps of validated stages (spec §2, with §5.2's nested entries and §2's
 * `wait_steps`): the sums of {@link stageCriticalTerm} and {@link stageWorkTerm} in stage order.
 */
export function stageTotals(stages: readonly NormalizedStage[]): { readonly critical: number; readonly total: number } {
  let critical = 0;
  let total = 0;
  for (const stage of stages) {
    critical += stageCriticalTerm(stage);
    total += stageWorkTerm(stage);
  }
  return { critical, total };
}
