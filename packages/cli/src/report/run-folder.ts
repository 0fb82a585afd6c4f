/**
 * Reading a training run folder (spec §6): `config.json`, `metrics.jsonl` and `summary.json`,
 * checked field by field so a damaged file is named with the line and field at fault.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ParlInputError,
  recordText,
  requireObject,
  validateRunSummary,
  validateStepMetrics,
  type RunSummary,
  type StepMetrics,
} from '@parl/core';
import { CliError, describeFsError } from '../errors.js';
import { isUnreadable, readRecords } from '@parl/io';
import { ExtremaDownsampler } from './extrema-downsampler.js';

/** A run folder's contents. */
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

async function readJsonFile(dir: string, name: string): Promise<unknown> {
  const path = join(dir, name);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${describeFsError(err)} (is ${dir} a run folder written by parl train?)`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`cannot read ${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

function located<T>(location: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ParlInputError) throw err.at(location);
    throw err;
  }
}

/**
 * Read and check a run folder.
 *
 * @throws {@link CliError} when the folder or a file is missing or not JSON
 * @throws {@link @parl/core!ParlInputError} naming file, line and field when a value is wrong
 */
export async function readRunFolder(dir: string): Promise<RunData> {
  try {
    if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    throw new CliError(`cannot read run folder ${dir}: ${describeFsError(err)}`);
  }
  const configValue = await readJsonFile(dir, 'config.json');
  const summaryValue = await readJsonFile(dir, 'summary.json');
  const metricsPath = join(dir, 'metrics.jsonl');
  try {
    await stat(metricsPath);
  } catch (err) {
    throw new CliError(`cannot read ${metricsPath}: ${describeFsError(err)}`);
  }
  const config = located('config.json', () => requireObject(configValue, 'config'));
  recordText(config, 'config.json');
  const summary = located('summary.json', () => validateRunSummary(summaryValue));
  const metrics = new ExtremaDownsampler<StepMetrics>();
  for await (const item of readRecords(createReadStream(metricsPath))) {
    const location = `metrics.jsonl ${item.location}`;
    if (isUnreadable(item)) throw item.error.at(location);
    metrics.push(located(location, () => validateStepMetrics(item.value)));
  }
  if (metrics.count !== summary.steps) {
    throw new ParlInputError(
      'steps',
      summary.steps,
      `the number of lines in metrics.jsonl (${metrics.count}), one per training step`,
      'summary.json',
    );
  }
  return { dir, config, metrics: metrics.result(), metricsCount: metrics.count, summary };
}

/**
 * The {@link RunData} of metrics already in memory (a run just trained), downsampled the same way
 * as when read from a folder.
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
