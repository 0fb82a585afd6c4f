/**
 * The sub-agents' finish rate (spec §3, §5): one definition, and a name for each way the docs
 * aggregate it over episodes.
 *
 * - {@link finishRate}: completed / assigned subtasks of one episode, null when none was assigned.
 *   r_finish (spec §3) is this rate with 0 in place of null.
 * - {@link meanFinishRate}: the mean of the episodes' finish rates (each episode weighs the same;
 *   episodes that assigned nothing are left out) — what the live dashboard shows.
 * - {@link pooledFinishRate}: Σ completed / Σ assigned over the episodes (each sub-agent weighs the
 *   same) — what `parl swarm eval` reports.
 *
 * @module
 */
import { ParlInputError, requireNonNegative } from './errors.js';

/**
 * completed / assigned subtasks, or null when none was assigned: an episode that launched no
 * sub-agent has no finish rate (not 1, not 0).
 *
 * @throws {@link ParlInputError} when completed > assigned, or either is negative or not finite
 *
 * @example
 * ```ts
 * finishRate(3, 4); // 0.75
 * finishRate(0, 0); // null
 * ```
 */
export function finishRate(completedSubtasks: number, assignedSubtasks: number): number | null {
  requireNonNegative(assignedSubtasks, 'assigned_subtasks');
  requireNonNegative(completedSubtasks, 'completed_subtasks');
  if (completedSubtasks > assignedSubtasks) {
    throw new ParlInputError('completed_subtasks', completedSubtasks, `at most assigned_subtasks (${assignedSubtasks})`);
  }
  return assignedSubtasks > 0 ? completedSubtasks / assignedSubtasks : null;
}

/** An episode's subtask counts, as {@link subagentCounts} gives them. */
export interface FinishCounts {
  /** Subtasks assigned. */
  readonly assigned: number;
  /** Subtasks completed. */
  readonly completed: number;
}

/**
 * The per-episode mean finish rate: the mean over episodes of {@link finishRate}, leaving out
 * those that assigned nothing; null when none assigned anything.
 *
 * @example
 * ```ts
 * meanFinishRate([{ assigned: 1, completed: 1 }, { assigned: 3, completed: 0 }, { assigned: 0, completed: 0 }]); // 0.5
 * ```
 */
export function meanFinishRate(episodes: Iterable<FinishCounts>): number | null {
  let sum = 0;
  let n = 0;
  for (const e of episodes) {
    const rate = finishRate(e.completed, e.assigned);
    if (rate === null) continue;
    sum += rate;
    n++;
  }
  return n === 0 ? null : sum / n;
}

/**
 * The pooled finish rate: Σ completed / Σ assigned over the episodes, so that every sub-agent
 * weighs the same; null when none assigned anything.
 *
 * @example
 * ```ts
 * pooledFinishRate([{ assigned: 1, completed: 1 }, { assigned: 3, completed: 0 }]); // 0.25
 * ```
 */
export function pooledFinishRate(episodes: Iterable<FinishCounts>): number | null {
  let assigned = 0;
  let completed = 0;
  for (const e of episodes) {
    finishRate(e.completed, e.assigned);
    assigned += e.assigned;
    completed += e.completed;
  }
  return assigned === 0 ? null : completed / assigned;
}
