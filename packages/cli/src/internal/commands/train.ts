/**
 * `parl train`: train an orchestrator policy from a preset (and an optional config file), showing
 * progress on stderr, then write the spec §6 run folder with its report.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError, parseSchedule, runVerdict, scheduleEndStep, type RunSummary, type StepMetrics } from '@parl/core';
import { checkRunFolderTarget, getPreset, resolveTrainingConfig, runFolderContentsOf, train, writeRunFolder, type TrainingConfig } from '@parl/sim';
import { CliError, describeFsError } from '../../errors.js';
import { DEFAULT_PRESET, type TrainSettings } from '@parl/sim/options';
import { logLine, type CliIo } from '../../terminal/cli-io.js';
import { formatNumber } from '../report/format-number.js';
import { tempPaths } from '@parl/io';
import { createProgressReporter } from '../terminal/train-progress.js';
import { buildRunReport } from '../report/build-report.js';
import { runDataOf } from '../report/run-folder.js';
import { trainingStory } from '../report/training-story.js';

export { DEFAULT_PRESET };

/**
 * Options of {@link trainCommand}, one per flag: the training settings (`@parl/sim`'s
 * `TrainSettings`, declared in its `TRAIN_OPTIONS`) and the run folder's handling.
 */
export interface TrainCommandOptions extends TrainSettings {
  /** `--out DIR`: the run folder (default `runs/PRESET-seedSEED`). */
  readonly out?: string;
  /** `--quiet`: no progress on stderr. */
  readonly quiet?: boolean;
  /** `--force`: replace `--out` even when it is not a previous run folder. */
  readonly force?: boolean;
}

/** What {@link trainCommand} wrote. */
export interface TrainCommandResult {
  /** The run folder. */
  readonly run_dir: string;
  /** Its report. */
  readonly report: string;
  /** `summary.json`. */
  readonly summary: RunSummary;
  /** What happened to delegation over training and why (see `trainingStory`); null without assign rates. */
  readonly story: string | null;
}

async function readConfigFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read --config ${path}: ${describeFsError(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`cannot read --config ${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * The training config the flags describe: the preset, then the config file over it, then
 * `--steps` and `--seed` over both.
 *
 * @throws {@link @parl/core!ParlInputError} for an unknown preset or a bad setting (located at the config file)
 */
export async function trainingConfigOf(options: TrainCommandOptions): Promise<TrainingConfig> {
  let config: TrainingConfig;
  try {
    config = getPreset(options.preset ?? DEFAULT_PRESET);
  } catch (err) {
    if (err instanceof ParlInputError) throw new ParlInputError('--preset', err.value, err.expected);
    throw err;
  }
  if (options.config !== undefined) {
    const partial = await readConfigFile(options.config);
    try {
      config = resolveTrainingConfig(partial, config);
    } catch (err) {
      if (err instanceof ParlInputError) throw err.at(`--config ${options.config}`);
      throw err;
    }
  }
  const overrides = {
    ...(options.steps === undefined ? {} : { steps: options.steps }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  };
  return Object.keys(overrides).length === 0 ? config : resolveTrainingConfig(overrides, config);
}

/**
 * A note for each λ schedule that is still annealing when training stops (`--steps` shorter than
 * the schedule): the final policy is then trained with auxiliary weight still on.
 */
export function unfinishedScheduleNotes(config: TrainingConfig): string[] {
  const notes: string[] = [];
  for (const [name, spec] of [['λ1', config.reward.lambda1], ['λ2', config.reward.lambda2]] as const) {
    if (spec.kind === 'constant') continue;
    const end = scheduleEndStep(spec);
    if (end <= config.steps) continue;
    const last = parseSchedule(spec, name).at(config.steps);
    notes.push(
      `training stops at step ${config.steps} but ${name} anneals until step ${end}: it is still ${formatNumber(last, 4)} at the end (use --steps ${end} or more, or a shorter schedule in --config)`,
    );
  }
  return notes;
}

/**
 * The line `parl train` ends with: core's verdict on the run first, then the width and finish
 * rate that decide it, stated plainly, then r_perf and critical steps against the serial baseline,
 * then — given the run's `story` (`trainingStory`) — what happened to delegation and why.
 * A spurious run reads as one (`spurious: groups of 100 sub-agents, of which 0.15 finish`), not as
 * a success.
 *
 * @example
 * ```ts
 * trainClosingLine(result.summary);
 * // 'parallel: groups of 6.4 sub-agents, finish rate 0.97; final r_perf 0.909 in 27.4 critical steps (serial baseline: 0.890 in 66.1)'
 * ```
 */
export function trainClosingLine(summary: RunSummary, story: string | null = null): string {
  const f = summary.final;
  const b = summary.baseline_serial;
  const verdict = runVerdict({ final_mean_width: f.mean_width, final_finish_rate: f.finish_rate });
  const launched = f.finish_rate !== null && f.mean_width > 0;
  const shape = !launched
    ? 'launches no sub-agent (width 0, finish rate none)'
    : `groups of ${formatNumber(f.mean_width, 3)} sub-agents, finish rate ${formatNumber(f.finish_rate, 3)}${verdict === 'spurious' ? ' (most sub-agents finish nothing)' : verdict === 'collapsed' ? ' (almost always one at a time)' : ''}`;
  return `${verdict}: ${shape}; final r_perf ${formatNumber(f.r_perf, 4)} in ${formatNumber(f.critical_steps, 4)} critical steps (serial baseline: ${formatNumber(b.r_perf, 4)} in ${formatNumber(b.critical_steps, 4)})${story === null ? '' : `; ${story}`}`;
}

/**
 * Train, then write the run folder (config.json, metrics.jsonl, summary.json, policy/,
 * report.html) atomically. The same seed gives the same metrics.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad preset, config file or setting
 *
 * @example
 * ```ts
 * const { report } = await trainCommand({ preset: 'parl', steps: 50, seed: 1, out: 'runs/quick' }, processIo());
 * ```
 */
export async function trainCommand(options: TrainCommandOptions, io: CliIo): Promise<TrainCommandResult> {
  const config = await trainingConfigOf(options);
  const dir = options.out ?? join('runs', `${config.preset}-seed${config.seed}`);
  const folderOptions = { force: options.force === true, tempPaths };
  try {
    await checkRunFolderTarget(dir, folderOptions);
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    throw new CliError(`cannot write run folder ${dir}: ${describeFsError(err)}`, 1);
  }
  for (const note of unfinishedScheduleNotes(config)) logLine(io, `parl train: note: ${note}`);
  const progress = createProgressReporter(io, 'parl train', options.quiet === true);
  let result: Awaited<ReturnType<typeof train>>;
  try {
    result = await train(config, { onProgress: (p) => progress.update(p) });
  } finally {
    progress.stop();
  }
  try {
    const metrics: StepMetrics[] = [];
    const run = runFolderContentsOf(result, (m) => metrics.push(m));
    const html = buildRunReport(runDataOf(dir, run.config, metrics, run.summary));
    await writeRunFolder(dir, result, { 'report.html': html }, folderOptions);
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    throw new CliError(`cannot write run folder ${dir}: ${describeFsError(err)}`, 1);
  } finally {
    result.policy.dispose();
  }
  return { run_dir: dir, report: join(dir, 'report.html'), summary: result.summary, story: trainingStory(result.metrics, config.env.directAction) };
}
