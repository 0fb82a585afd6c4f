/**
 * A sweep's run folders: whether `runs/<run id>/` is complete (then the run is skipped), and
 * writing one from the files a worker sent back, with its report, through `@parl/sim`'s run-folder
 * writer (a temporary folder beside it, renamed into place; SIGINT removes the temporary folder).
 *
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { validateRunSummary, validateStepMetrics, type RunSummary } from '@parl/core';
import { writeFolderAtomically } from '@parl/sim';
import { tempPaths } from '@parl/io';
import { buildRunReport } from '../report/build-report.js';
import { runDataOf } from '../report/run-folder.js';

/** The files that make a sweep's run folder complete. */
export const COMPLETE_RUN_FILES: readonly string[] = ['config.json', 'metrics.jsonl', 'summary.json', 'policy/policy.json', 'report.html'];

/** The folder of a run inside a sweep folder. */
export function runFolderOf(sweepDir: string, runId: string): string {
  return join(sweepDir, 'runs', runId);
}

/**
 * The summary of a complete run folder, or undefined when the folder is missing, lacks one of
 * {@link COMPLETE_RUN_FILES}, holds another config (its hash is checked by the caller through
 * `sameConfig`), or its summary does not validate: such a run is trained (again).
 */
export async function completeRunSummary(runDir: string, sameConfig: (config: unknown) => boolean): Promise<RunSummary | undefined> {
  try {
    for (const name of COMPLETE_RUN_FILES) if (!(await stat(join(runDir, name))).isFile()) return undefined;
    if (!sameConfig(JSON.parse(await readFile(join(runDir, 'config.json'), 'utf8')))) return undefined;
    return validateRunSummary(JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

/** The report of a run from its files (the same page `parl train` and `parl report` write). */
export function runReportOf(runDir: string, files: Readonly<Record<string, string>>): string {
  const config = JSON.parse(files['config.json'] ?? 'null') as Record<string, unknown>;
  const metrics = (files['metrics.jsonl'] ?? '')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => validateStepMetrics(JSON.parse(l)));
  const summary = validateRunSummary(JSON.parse(files['summary.json'] ?? 'null'));
  return buildRunReport(runDataOf(runDir, config, metrics, summary));
}

/**
 * Write a run folder from its files plus its report, with `@parl/sim`'s one run-folder writer
 * ({@link @parl/sim!writeFolderAtomically}): a hidden temporary folder beside it, renamed into
 * place, replacing an incomplete folder of the same run. The folder appears complete or not at all.
 */
export async function writeSweepRunFolder(runDir: string, files: Readonly<Record<string, string>>): Promise<void> {
  await writeFolderAtomically(runDir, { ...files, 'report.html': runReportOf(runDir, files) }, { force: true, tempPaths });
}
