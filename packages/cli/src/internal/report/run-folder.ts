/**
 * A training run folder (spec §6) as the reports draw it: `@parl/sim`'s one reader
 * ({@link @parl/sim!readRunFolder}, loaded from `@parl/sim/runs` without TensorFlow.js) with the
 * metrics downsampled for drawing, and its errors as one CLI line.
 *
 * @module
 */
import type { RunSummary, StepMetrics } from '@parl/core';
import type { RunFolderReadError } from '@parl/sim/runs';
import { CliError } from '../../errors.js';
import { importOptional } from '../../optional-packages.js';
import { ExtremaDownsampler } from './extrema-downsampler.js';

/** A run folder's contents, as the report draws them. */
export interface RunData {
  /** The folder. */
  readonly dir: string;
  /** `config.json` as written by the trainer. */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * `metrics.jsonl` in file order, downsampled for drawing when long (see
   * {@link ExtremaDownsampler}: every line while there are a few thousand, else each stretch's
   * first, last, minima and maxima).
   */
  readonly metrics: readonly StepMetrics[];
  /** Lines in `metrics.jsonl` (one per training step). */
  readonly metricsCount: number;
  /** `summary.json`. */
  readonly summary: RunSummary;
}

/**
 * Read and check a run folder with `@parl/sim`'s reader.
 *
 * @throws {@link CliError} when `@parl/sim` is missing, or the folder or a file is missing or not JSON
 * @throws {@link @parl/core!ParlInputError} naming file, line and field when a value is wrong
 */
export async function readRunFolder(dir: string): Promise<RunData> {
  const runs = await importOptional('@parl/sim', 'report', () => import('@parl/sim/runs'));
  const metrics = new ExtremaDownsampler<StepMetrics>();
  try {
    const run = await runs.readRunFolder(dir, (m) => metrics.push(m));
    return { dir, config: run.config, metrics: metrics.result(), metricsCount: run.metricsCount, summary: run.summary };
  } catch (err) {
    if (!(err instanceof runs.RunFolderReadError)) throw err;
    const e = err as RunFolderReadError;
    const hint = e.fsCode === 'ENOENT' && e.path !== dir && !e.path.endsWith('metrics.jsonl') ? ` (is ${dir} a run folder written by parl train?)` : '';
    throw new CliError(e.path === dir ? `cannot read run folder ${dir}: ${e.reason}` : `${e.message}${hint}`);
  }
}

/**
 * The {@link RunData} of a run whose records are already checked (a run just trained, or one a
 * sweep worker sent back), downsampled the same way as when read from a folder.
 */
export function runDataOf(
  dir: string,
  config: Readonly<Record<string, unknown>>,
  metrics: readonly StepMetrics[],
  summary: RunSummary,
): RunData {
  const kept = new ExtremaDownsampler<StepMetrics>();
  for (const m of metrics) kept.push(m);
  return { dir, config, metrics: kept.result(), metricsCount: kept.count, summary };
}
