/**
 * The score of a task's final answer, whatever its scorer returned: a number or a {@link Score},
 * at once or as a promise; checked to be in [0, 1]. The runtime scores each episode's final
 * answer through this one function.
 *
 * @module
 */
import { scoreOfValue } from './module-scorer.js';
import { SwarmScoreError } from './score-error.js';
import type { Score } from './score.js';

/** What a task's `score` may return. */
export type ScoreValue = number | Score;

/** What the runtime needs of a task to score it. */
export interface ScorableTask {
  readonly id: string;
  /** The scorer's name, for `score.scorer` when `score` returns a bare number (default `task`). */
  readonly scorer?: string | undefined;
  score(answer: string, signal?: AbortSignal): ScoreValue | Promise<ScoreValue>;
}

/**
 * Score `answer` for `task`; `signal` (the episode's cancel) aborts a scorer's requests.
 *
 * @throws {@link SwarmScoreError} when the scorer threw or gave no r_perf in [0, 1]; `signal`'s
 *   reason when it aborted
 */
export async function scoreAnswer(task: ScorableTask, answer: string, signal?: AbortSignal): Promise<Score> {
  const name = task.scorer ?? 'task';
  let value: unknown;
  try {
    value = await task.score(answer, signal);
  } catch (err) {
    signal?.throwIfAborted();
    if (err instanceof SwarmScoreError) throw err;
    throw new SwarmScoreError(name, task.id, `it threw ${err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err)}`, err);
  }
  const score = scoreOfValue(name, value);
  if (typeof score === 'string') throw new SwarmScoreError(name, task.id, `it ${score}`);
  return typeof value === 'object' ? ({ ...score, scorer: (value as Score).scorer ?? name } as Score) : score;
}

/** The score of an episode that gave no answer to score (stopped at its cap, or by the budget with `on_budget: fail`). */
export function unscored(task: ScorableTask, stop: string): Score {
  return { scorer: task.scorer ?? 'task', r_perf: 0, unscored: stop };
}
