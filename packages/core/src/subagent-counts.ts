/**
 * The one rule for counting an episode's sub-agents and their finish rate (spec §3, §5, §5.2):
 * the dashboard, the columnar path and every report call these rather than counting themselves.
 *
 * @module
 */
import { ParlInputError } from './errors.js';
import { finishRate } from './finish-rate.js';
import { validateRecord, type NormalizedEpisode } from './records.js';

/** An episode's sub-agents as spec §5 counts them: top-level only (spec §5.2). */
export interface SubagentCounts {
  /** Sub-agents launched: `num_subagents` when given, else the top-level entries of `stages`. */
  readonly launched: number;
  /** Subtasks assigned (spec §5 defaults). */
  readonly assigned: number;
  /** Subtasks completed (spec §5 defaults: a sub-agent without `finished` counts as finished). */
  readonly completed: number;
  /**
   * completed / assigned, or null when no subtask was assigned: an episode that launched no
   * sub-agent has no finish rate (not 1, not 0), and a mean over episodes leaves it out.
   */
  readonly finish_rate: number | null;
}

/**
 * {@link SubagentCounts} of an already validated episode.
 *
 * @example
 * ```ts
 * subagentCountsOfEpisode(validateRecord({ stages: [{ main_steps: 1, sub_steps: [2, { steps: 3, finished: false }] }] }));
 * // { launched: 2, assigned: 2, completed: 1, finish_rate: 0.5 }
 * ```
 */
export function subagentCountsOfEpisode(episode: NormalizedEpisode): SubagentCounts {
  return {
    launched: episode.numSubagents,
    assigned: episode.assigned,
    completed: episode.completed,
    finish_rate: finishRate(episode.completed, episode.assigned),
  };
}

/**
 * {@link SubagentCounts} of an untrusted spec §5 record (labelled or not); mixing plain numbers
 * and `{steps, finished}` entries in `sub_steps` is allowed, a plain number counting as finished.
 *
 * @param record - the record (parsed JSON)
 * @param location - where it came from, prefixed to error messages
 * @throws {@link ParlInputError} for an invalid record
 *
 * @example
 * ```ts
 * subagentCounts({ stages: [{ main_steps: 1, sub_steps: [4, { steps: 2, finished: false }] }] }).finish_rate; // 0.5
 * subagentCounts({ stages: [{ main_steps: 3 }] }).finish_rate; // null: none launched
 * ```
 */
export function subagentCounts(record: unknown, location?: string): SubagentCounts {
  return subagentCountsOfEpisode(validateRecord(record, location));
}

/**
 * Sub-agents launched per row of ragged stages held as offsets (columnar data): row b's stages
 * are `rowStart[b]..rowStart[b+1]`, stage t's top-level entries `subStart[t]..subStart[t+1]`.
 * The same count as {@link SubagentCounts.launched} for a row without `num_subagents`.
 *
 * @param rowStart - B + 1 offsets into the stages, non-decreasing
 * @param subStart - one offset per stage plus one, non-decreasing
 * @param out - where to write (length ≥ B); allocated when absent
 * @throws {@link ParlInputError} for offsets out of order or out of range
 */
export function launchedSubagentsOfRows(rowStart: ArrayLike<number>, subStart: ArrayLike<number>, out?: Float64Array): Float64Array {
  const rows = Math.max(0, rowStart.length - 1);
  const result = out ?? new Float64Array(rows);
  if (result.length < rows) throw new ParlInputError('out.length', result.length, `at least ${rows}`);
  for (let b = 0; b < rows; b++) {
    const first = rowStart[b] as number;
    const last = rowStart[b + 1] as number;
    if (!(first >= 0 && last >= first && last < subStart.length)) {
      throw new ParlInputError(`rowStart[${b + 1}]`, last, `an offset between ${first} and ${subStart.length - 1}`);
    }
    const launched = (subStart[last] as number) - (subStart[first] as number);
    if (!(launched >= 0)) throw new ParlInputError(`subStart[${last}]`, subStart[last], `at least subStart[${first}] (${subStart[first]})`);
    result[b] = launched;
  }
  return result;
}
