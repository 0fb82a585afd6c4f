/**
 * The state features the policy network sees, one row per episode and decision.
 *
 * @module
 */

/**
 * The names of the state features, in column order. Counts are scaled to about [0, 1]:
 * - `ready`: ready subtasks / 32
 * - `remaining`: subtasks not yet done / 32
 * - `depth`: dependency layers still to go / 4
 * - `context_fill`: orchestrator context used / context size
 * - `steps_used`: orchestrator steps used / its max steps
 * - `clock`: critical steps so far / budget (or / orchestrator max steps without a budget)
 * - `done_share`: subtasks done / subtasks
 * - `ready_cost`: mean cost of the ready subtasks / (4 · costMean)
 * - `log_ready`: ln(1 + ready) / ln(101)
 * - `all_ready`: 1 when every remaining subtask is ready (nothing blocked), else 0
 * - `one_ready`: 1 when exactly one subtask is ready (a remainder the orchestrator may do itself)
 * - `size`: subtasks in the task / 32
 * - `concurrency`: sub-agents that may run at once / group limit (1 without a concurrency limit)
 */
export const FEATURE_NAMES = [
  'ready',
  'remaining',
  'depth',
  'context_fill',
  'steps_used',
  'clock',
  'done_share',
  'ready_cost',
  'log_ready',
  'all_ready',
  'one_ready',
  'size',
  'concurrency',
] as const;

/** The `ready` feature is ready subtasks divided by this (so the count head can read it back). */
export const READY_SCALE = 32;

/** Number of state features per row. */
export const FEATURE_COUNT = FEATURE_NAMES.length;
