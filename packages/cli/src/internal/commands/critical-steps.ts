/**
 * `parl critical-steps`: records with `stages` in, the spec §2 fields added (core
 * `labelCriticalSteps`), optionally under a critical-step budget, by `@parl/io`'s labelling engine.
 *
 * @module
 */
import type { BudgetMode, CriticalStepsLabelOptions } from '@parl/core';
import { labelStream, type RecordIoOptions, type RecordRunSummary } from '@parl/io';
import type { CliIo } from '../../terminal/cli-io.js';

/** Options of {@link criticalStepsCommand}, one per flag. */
export interface CriticalStepsCommandOptions extends RecordIoOptions {
  /** `--budget K`: critical-step budget; adds `within_budget` and `budget_cut_stage`. */
  readonly budget?: number;
  /** `--on-budget`: `fail` (default: fields of the whole episode) or `truncate` (fields of the stages that ran). */
  readonly onBudget?: BudgetMode;
}

/**
 * Label every record with `critical_steps`, `total_steps`, `parallelism`, `num_stages`,
 * `max_width` and `mean_width` (and the budget fields with `--budget`).
 *
 * @throws {@link @parl/core!ParlInputError} for a record without `stages` or with a bad step (under `--on-error fail`)
 *
 * @example
 * ```ts
 * await criticalStepsCommand({ in: 'episodes.jsonl', budget: 40, onBudget: 'truncate' }, processIo());
 * ```
 */
export async function criticalStepsCommand(options: CriticalStepsCommandOptions, io: CliIo): Promise<RecordRunSummary> {
  const labelOptions: CriticalStepsLabelOptions = {
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.onBudget === undefined ? {} : { onBudget: options.onBudget }),
  };
  return labelStream('critical-steps', options, io, { command: 'critical-steps', config: labelOptions });
}
