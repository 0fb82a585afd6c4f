/**
 * Reading a spec §6 run folder — from disk, from the files a sweep worker sent back, or from a
 * training result in memory — with one set of checks: `config.json` an object that can be
 * written back, `summary.json` valid, every `metrics.jsonl` line valid, one line per training
 * step. A damaged file is named with the line and field at fault.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  ParlInputError,
  recordText,
  requireObject,
  validateRunSummary,
  validateStepMetrics,
  type RunSummary,
  type StepMetrics,
} from '@parl/core';
import { describeFsError } from '@parl/io';
import type { TrainingResult } from '../training/trainer.js';
import { CONFIG_FILE, METRICS_FILE, SUMMARY_FILE } from './run-folder-entries.js';

/** A run folder's records, checked; its metrics went to the reader's `onMetric`, in file order. */
export interface RunFolderContents {
  /** `config.json`. */
  readonly config: Readonly<Record<string, unknown>>;
  /** `summary.json`. */
  readonly summary: RunSummary;
  /** Lines in `metrics.jsonl` (one per training step). */
  readonly metricsCount: number;
}

/** Told of each `metrics.jsonl` line, checked, in file order (a reader may keep all, or a sample). */
export type MetricsSink = (metrics: StepMetrics) => void;

/**
 * A run-folder file that cannot be read at all (missing, unreadable, not JSON): `path` and
 * `reason` say which and why; `fsCode` is the file-system error code when there is one.
 */
export class RunFolderReadError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_RUN_FOLDER_READ'] as const;
  /** The stable code: `PARL_ERR_RUN_FOLDER_READ` (the file-system code is {@link RunFolderReadError.fsCode}). */
  readonly code = 'PARL_ERR_RUN_FOLDER_READ';
  /** The file. */
  readonly path: string;
  /** Why, in words: `no such file or directory`, `not valid JSON (…)`. */
  readonly reason: string;
  /** The file-system error code (`ENOENT`…), when the file could not be read. */
  readonly fsCode: string | undefined;

  /**
   * @param path - the file
   * @param reason - why it cannot be read
   * @param fsCode - the file-system error code, if any
   */
  constructor(path: string, reason: string, fsCode?: string) {
    super(`cannot read ${path}: ${reason}`);
    this.name = 'RunFolderReadError';
    this.path = path;
    this.reason = reason;
    this.fsCode = fsCode;
  }
}

function fsReason(err: unknown): { reason: string; code: string | undefined } {
  const code = (err as { code?: unknown } | null)?.code;
  return { reason: describeFsError(err), code: typeof code === 'string' ? code : undefined };
}

function located<T>(location: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ParlInputError) throw err.at(location);
    throw err;
  }
}

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RunFolderReadError(path, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** One `metrics.jsonl` line, checked; blank lines are skipped by the callers. */
function metricsLine(text: string, line: number): StepMetrics {
  const location = `${METRICS_FILE} line ${line}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ParlInputError('line', text.length > 60 ? `${text.slice(0, 57)}...` : text, 'a line of valid JSON', location);
  }
  return located(location, () => validateStepMetrics(value));
}

/** The checks every reader shares, once the metrics are counted. */
function checked(configValue: unknown, summaryValue: unknown, metricsCount: number): RunFolderContents {
  const config = located(CONFIG_FILE, () => requireObject(configValue, 'config'));
  recordText(config, CONFIG_FILE);
  const summary = located(SUMMARY_FILE, () => validateRunSummary(summaryValue));
  if (metricsCount !== summary.steps) {
    throw new ParlInputError('steps', summary.steps, `the number of lines in ${METRICS_FILE} (${metricsCount}), one per training step`, SUMMARY_FILE);
  }
  return { config, summary, metricsCount };
}

/**
 * Read and check a run folder on disk; `metrics.jsonl` is streamed line by line into `onMetric`.
 *
 * @throws {@link RunFolderReadError} when the folder or a file is missing, unreadable or not JSON
 * @throws {@link @parl/core!ParlInputError} naming file, line and field when a value is wrong
 *
 * @example
 * ```ts
 * const config = resolveTrainingConfig({ seed: 1, steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const trained = await train(config);
 * await writeRunFolder('runs/parl-seed1', trained);
 * trained.policy.dispose();
 * const metrics: StepMetrics[] = [];
 * const run = await readRunFolder('runs/parl-seed1', (m) => metrics.push(m));
 * run.summary.final.r_perf === trained.summary.final.r_perf; // true
 * metrics.length; // 2
 * ```
 */
export async function readRunFolder(dir: string, onMetric: MetricsSink = () => undefined): Promise<RunFolderContents> {
  try {
    if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    const { reason, code } = fsReason(err);
    throw new RunFolderReadError(dir, reason, code);
  }
  const readJson = async (name: string): Promise<unknown> => {
    const path = join(dir, name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      const { reason, code } = fsReason(err);
      throw new RunFolderReadError(path, reason, code);
    }
    return parseJson(path, text);
  };
  const configValue = await readJson(CONFIG_FILE);
  const summaryValue = await readJson(SUMMARY_FILE);
  const metricsPath = join(dir, METRICS_FILE);
  let count = 0;
  let line = 0;
  try {
    const lines = createInterface({ input: createReadStream(metricsPath, 'utf8'), crlfDelay: Infinity });
    for await (const text of lines) {
      line++;
      if (text.trim() === '') continue;
      onMetric(metricsLine(text, line));
      count++;
    }
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    const { reason, code } = fsReason(err);
    throw new RunFolderReadError(metricsPath, reason, code);
  }
  return checked(configValue, summaryValue, count);
}

/**
 * Check the files of a run folder held in memory (what a sweep worker sends back), exactly as
 * {@link readRunFolder} checks them on disk.
 *
 * @throws {@link RunFolderReadError} for a file that is missing or not JSON; {@link @parl/core!ParlInputError} for a wrong value
 */
export function runFolderContentsOfFiles(files: Readonly<Record<string, string>>, onMetric: MetricsSink = () => undefined): RunFolderContents {
  const text = (name: string): string => {
    const t = files[name];
    if (t === undefined) throw new RunFolderReadError(name, 'no such file in the run sent back', 'ENOENT');
    return t;
  };
  const configValue = parseJson(CONFIG_FILE, text(CONFIG_FILE));
  const summaryValue = parseJson(SUMMARY_FILE, text(SUMMARY_FILE));
  let count = 0;
  text(METRICS_FILE)
    .split('\n')
    .forEach((l, i) => {
      if (l.trim() === '') return;
      onMetric(metricsLine(l, i + 1));
      count++;
    });
  return checked(configValue, summaryValue, count);
}

/**
 * The contents of a run just trained, without writing or re-reading anything: the same checks
 * as {@link readRunFolder} applied to the result's own values.
 *
 * @example
 * ```ts
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const result = await train(config);
 * const kept: StepMetrics[] = [];
 * const run = runFolderContentsOf(result, (m) => kept.push(m));
 * kept.length; // 2
 * result.policy.dispose();
 * ```
 */
export function runFolderContentsOf(result: TrainingResult, onMetric: MetricsSink = () => undefined): RunFolderContents {
  for (const m of result.metrics) onMetric(validateStepMetrics(m));
  return checked(result.config, result.summary, result.metrics.length);
}
