/**
 * The named error of a scorer that could not give r_perf (spec §10.2: a module scorer that threw,
 * returned a non-number or a value outside [0, 1]): the error of that episode.
 *
 * @module
 */

/** A scorer failed on a task's answer: one line naming the scorer, the task and what went wrong. */
export class SwarmScoreError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_SCORE'] as const;
  /** The stable code: `PARL_ERR_SCORE` (match on this, never on the message). */
  readonly code = 'PARL_ERR_SCORE';
  /** The scorer (`module:./score.mjs`). */
  readonly scorer: string;
  /** The task id. */
  readonly taskId: string;

  /**
   * @param scorer - the scorer's name
   * @param taskId - the task
   * @param reason - what went wrong, one line
   * @param cause - what the scorer threw, if it threw
   */
  constructor(scorer: string, taskId: string, reason: string, cause?: unknown) {
    super(`scorer ${scorer} on task ${taskId}: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'SwarmScoreError';
    this.scorer = scorer;
    this.taskId = taskId;
  }
}
