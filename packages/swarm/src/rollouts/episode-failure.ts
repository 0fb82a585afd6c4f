/**
 * Errors of an episode (spec §10.2): a scorer's or the judge's failure, a policy-model call that
 * failed past its retries, or a rollout job a worker failed. Such an episode writes no line and
 * posts no reward; the run goes on with the other episodes, names each failure at the end and
 * rejects with {@link SwarmEpisodesFailedError}, and the same command reruns exactly those
 * episodes (the rollout file's resume).
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

/** One episode that failed: which rollout, and why (one line). */
export interface EpisodeFailure {
  /** The rollout (`task/rollout-N`). */
  readonly rollout_id: string;
  /** The task. */
  readonly task_id: string;
  /** The sample number. */
  readonly sample: number;
  /** The error's code (`PARL_ERR_SCORE`, `PARL_ERR_PROVIDER`, `PARL_ERR_ROLLOUT_JOB`). */
  readonly code: string;
  /** Why, one line. */
  readonly reason: string;
}

/**
 * Some episodes failed (spec §10.2): they wrote no line and posted no reward; every other episode
 * ran and was written. The same command runs exactly the failed ones again (with `--out`, the
 * finished lines are kept for that resume).
 */
export class SwarmEpisodesFailedError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_EPISODES'] as const;
  /** The stable code: `PARL_ERR_EPISODES` (match on this, never on the message). */
  readonly code = 'PARL_ERR_EPISODES';
  /** Each failed episode, in the order they failed. */
  readonly failures: readonly EpisodeFailure[];
  /** The summary of the lines that were written. */
  readonly summary: RolloutSummary;

  /**
   * @param failures - the failed episodes (at least one)
   * @param summary - the lines written
   * @param resumable - whether the run keeps what finished for a rerun (it has `--out`)
   */
  constructor(failures: readonly EpisodeFailure[], summary: RolloutSummary, resumable: boolean) {
    const n = failures.length;
    super(
      `${n} episode${n === 1 ? '' : 's'} failed (no line and no reward for ${n === 1 ? 'it' : 'them'}): ` +
        (resumable ? `run the same command again to run ${n === 1 ? 'it' : 'them'} again` : 'with --out FILE a rerun of the same command runs only the failed episodes'),
    );
    this.name = 'SwarmEpisodesFailedError';
    this.failures = failures;
    this.summary = summary;
  }
}
