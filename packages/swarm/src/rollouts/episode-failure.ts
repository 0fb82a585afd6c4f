/**
 * Errors of an episode (spec §10.2): a scorer's or the judge's failure, a policy-model call that
 * failed past its retries, or a rollout job a worker failed. Such an episode writes no line and
 * posts no reward (in an evaluation: it is not graded and stays out of the totals); the job goes on
 * with the other episodes, names each failure at the end and rejects with
 * {@link SwarmEpisodesFailedError}, and the same command reruns exactly those episodes (the
 * rollout file's resume; an evaluation's `--out`). `parl swarm run` and `parl swarm eval` share
 * this one mechanism.
 *
 * @module
 */
import type { RolloutSummary } from './rollout-summary.js';

/** The codes of the errors that fail one episode and not the run. */
const EPISODE_ERROR_CODES: ReadonlySet<string> = new Set(['PARL_ERR_SCORE', 'PARL_ERR_PROVIDER', 'PARL_ERR_ROLLOUT_JOB']);

/** Whether `err` is an error of one episode (a scorer's, the judge's, the policy's, a worker's), which the run outlives. */
export function isEpisodeError(err: unknown): err is Error & { readonly code: string } {
  const code: unknown = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && EPISODE_ERROR_CODES.has(code);
}

/** One episode that failed: which rollout (or evaluation episode), and why (one line). */
export interface EpisodeFailure {
  /** The rollout (`task/rollout-N`; in an evaluation `task/swarm` or `task/single`). */
  readonly rollout_id: string;
  /** The task. */
  readonly task_id: string;
  /** The sample number (0 in an evaluation). */
  readonly sample: number;
  /** The error's code (`PARL_ERR_SCORE`, `PARL_ERR_PROVIDER`, `PARL_ERR_ROLLOUT_JOB`). */
  readonly code: string;
  /** Why, one line. */
  readonly reason: string;
}

/**
 * The failure of one episode, from the error it failed with (an error of an episode: see
 * {@link isEpisodeError}): its code and the first line of its message.
 */
export function episodeFailure(rolloutId: string, taskId: string, sample: number, error: Error & { readonly code: string }): EpisodeFailure {
  return { rollout_id: rolloutId, task_id: taskId, sample, code: error.code, reason: error.message.split('\n')[0] ?? '' };
}

/** Which job's episodes failed: `run` (rollout lines) or `eval` (an evaluation's grades). */
export type EpisodesJob = 'run' | 'eval';

/**
 * Some episodes failed (spec §10.2): they wrote no line and posted no reward; every other episode
 * ran and was written. The same command runs exactly the failed ones again (with `--out`, the
 * finished lines are kept for that resume). `summary` is what the job made of the episodes that
 * did not fail: the rollout lines' {@link RolloutSummary} for `parl swarm run`, the evaluation of
 * the graded episodes (a `SwarmEvaluation`, whose totals count only those) for `parl swarm eval`.
 *
 * @typeParam S - the job's summary of what did not fail
 */
export class SwarmEpisodesFailedError<S = RolloutSummary> extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_EPISODES'] as const;
  /** The stable code: `PARL_ERR_EPISODES` (match on this, never on the message). */
  readonly code = 'PARL_ERR_EPISODES';
  /** Each failed episode, in the order they failed. */
  readonly failures: readonly EpisodeFailure[];
  /** The summary of what did not fail: the lines that were written, or the evaluation of the graded episodes. */
  readonly summary: S;

  /**
   * @param failures - the failed episodes (at least one)
   * @param summary - the lines written, or the evaluation of the graded episodes
   * @param resumable - whether the job keeps what finished for a rerun (it has `--out`)
   * @param job - `run` (default) or `eval`: says what a failed episode lacks (a line and a reward, or a grade)
   */
  constructor(failures: readonly EpisodeFailure[], summary: S, resumable: boolean, job: EpisodesJob = 'run') {
    const n = failures.length;
    const them = n === 1 ? 'it' : 'them';
    super(
      `${n} episode${n === 1 ? '' : 's'} failed (${job === 'run' ? `no line and no reward for ${them}` : `not graded: left out of the evaluation's totals`}): ` +
        (resumable ? `run the same command again to run ${n === 1 ? 'it' : 'them'} again` : 'with --out FILE a rerun of the same command runs only the failed episodes'),
    );
    this.name = 'SwarmEpisodesFailedError';
    this.failures = failures;
    this.summary = summary;
  }
}
