/**
 * Whether a run folder is complete: every file of {@link RUN_FOLDER_FILES} present, its
 * `config.json` the config the caller expects (same run id), and its `summary.json` valid. A
 * sweep skips such a run; anything less is trained (again).
 *
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { validateRunSummary, type RunSummary } from '@parl/core';
import type { TrainingConfig } from '../training/training-config.js';
import { CONFIG_FILE, RUN_FOLDER_FILES, SUMMARY_FILE } from './run-folder-entries.js';
import { runIdOf } from '../internal/runs/run-id.js';

/**
 * The summary of the complete run folder `dir` of run `runId`, or undefined when a file of
 * {@link RUN_FOLDER_FILES} is missing, its config hashes to another run id, or its summary does
 * not validate.
 *
 * @example
 * ```ts
 * import { getPreset, resolveTrainingConfig, train, writeRunFolder } from '@parl/sim';
 * import { runIdOf } from '../internal/runs/run-id.js';
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const runId = runIdOf(config);
 * const dir = `sweeps/lambda/runs/${runId}`;
 * (await completeRunSummary(dir, runId)) === undefined; // true: not trained yet
 * const result = await train(config);
 * await writeRunFolder(dir, result);
 * result.policy.dispose();
 * (await completeRunSummary(dir, runId))?.steps; // 2
 * (await completeRunSummary(dir, 'another-run')) === undefined; // true: another config
 * ```
 */
export async function completeRunSummary(dir: string, runId: string): Promise<RunSummary | undefined> {
  try {
    for (const name of RUN_FOLDER_FILES) if (!(await stat(join(dir, name))).isFile()) return undefined;
    const config = JSON.parse(await readFile(join(dir, CONFIG_FILE), 'utf8')) as TrainingConfig;
    if (runIdOf(config) !== runId) return undefined;
    return validateRunSummary(JSON.parse(await readFile(join(dir, SUMMARY_FILE), 'utf8')));
  } catch {
    return undefined;
  }
}
