/**
 * `parl report RUN_DIR`: rebuild a run's HTML report from its spec §6 files.
 *
 * @module
 */
import { join } from 'node:path';
import { buildRunReport } from '../report/build-report.js';
import { readRunFolder } from '../report/run-folder.js';
import { writeFileAtomic } from '@parl/io';

/** Options of {@link reportCommand}. */
export interface ReportCommandOptions {
  /** The run folder written by `parl train`. */
  readonly runDir: string;
  /** `--out FILE`: where to write the report (default `RUN_DIR/report.html`). */
  readonly out?: string;
}

/** What {@link reportCommand} wrote. */
export interface ReportCommandResult {
  /** The report's path. */
  readonly report: string;
}

/**
 * Read `config.json`, `metrics.jsonl` and `summary.json` from the run folder and write the
 * self-contained report (atomically).
 *
 * @throws {@link CliError} when the folder or a file is missing
 * @throws {@link @parl/core!ParlInputError} naming file, line and field of a bad value
 *
 * @example
 * ```ts
 * const { report } = await reportCommand({ runDir: 'runs/parl-seed1' });
 * ```
 */
export async function reportCommand(options: ReportCommandOptions): Promise<ReportCommandResult> {
  const run = await readRunFolder(options.runDir);
  const report = options.out ?? join(options.runDir, 'report.html');
  await writeFileAtomic(report, buildRunReport(run));
  return { report };
}
