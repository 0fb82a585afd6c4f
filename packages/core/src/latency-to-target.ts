/**
 * Latency to target (spec §6 / §10): the critical-step budget a set of episodes needs to reach a
 * mean r_perf target, as the Kimi K2.5 report's latency-to-target figure plots it.
 *
 * @module
 */
import { ParlInputError, requireFinite, requireNonNegative } from './errors.js';

/** One episode as latency-to-target reads it: its critical steps and its r_perf without a budget. */
export interface EpisodeOutcome {
  /** Critical steps (spec §2) of the episode run without a budget. */
  readonly critical_steps: number;
  /** Its r_perf. */
  readonly r_perf: number;
}

/**
 * The smallest critical-step budget K at which the mean r_perf of `episodes` reaches `target`,
 * where an episode whose critical steps exceed K scores 0 (the budget's `fail` mode); null when
 * even the largest budget does not reach it (or there are no episodes).
 *
 * @param episodes - the episodes, each run without a budget
 * @param target - the r_perf target
 * @throws {@link ParlInputError} for a non-finite target or a bad episode
 *
 * @example
 * ```ts
 * budgetToReachTarget([{ critical_steps: 4, r_perf: 1 }, { critical_steps: 9, r_perf: 1 }], 0.5); // 4
 * ```
 */
export function budgetToReachTarget(episodes: readonly EpisodeOutcome[], target: number): number | null {
  requireFinite(target, 'target');
  episodes.forEach((e, i) => {
    requireNonNegative(e.critical_steps, `episodes[${i}].critical_steps`);
    requireFinite(e.r_perf, `episodes[${i}].r_perf`);
  });
  if (episodes.length === 0) return null;
  const byBudget = [...episodes].sort((a, b) => a.critical_steps - b.critical_steps);
  let sum = 0;
  for (let i = 0; i < byBudget.length; i++) {
    const e = byBudget[i] as EpisodeOutcome;
    sum += e.r_perf;
    // All episodes with the same critical steps enter together.
    const next = byBudget[i + 1];
    if (next !== undefined && next.critical_steps === e.critical_steps) continue;
    if (sum / episodes.length >= target) return e.critical_steps;
  }
  return null;
}

/** Reject a target list that is not finite numbers. */
export function requireTargets(targets: readonly unknown[], field = 'targets'): number[] {
  if (targets.length === 0) throw new ParlInputError(field, targets, 'at least one r_perf target');
  return targets.map((t, i) => requireFinite(t, `${field}[${i}]`));
}
