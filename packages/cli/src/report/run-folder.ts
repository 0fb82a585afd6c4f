/**
 * Reading a training run folder (spec §6): `config.json`, `metrics.jsonl` and `summary.json`,
 * checked field by field so a damaged file is named with the line and field at fault.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError, fieldPath, requireArray, requireFinite, requireObject } from '@parl/core';
import { CliError, describeFsError } from '../errors.js';
import { isUnreadable, readRecords } from '../io/read-records.js';

/** The metric fields of one `metrics.jsonl` line (spec §6), means over the step's rollouts. */
export const METRIC_FIELDS = [
  'step',
  'lambda1',
  'lambda2',
  'total_reward',
  'r_parallel',
  'r_finish',
  'r_perf',
  'critical_steps',
  'mean_width',
  'finish_rate',
  'success_rate',
] as const;

/** One `metrics.jsonl` line. */
export type MetricsRow = { readonly [K in (typeof METRIC_FIELDS)[number]]: number };

/** `summary.json`'s `final` (greedy policy on held-out tasks). */
export interface FinalMetrics {
  /** Mean task reward. */
  readonly r_perf: number;
  /** Mean critical steps per episode. */
  readonly critical_steps: number;
  /** Mean sub-agents per launched group. */
  readonly mean_width: number;
  /** Share of assigned subtasks the sub-agents finished. */
  readonly finish_rate: number;
  /** Share of episodes that succeeded. */
  readonly success_rate: number;
}

/** One row of `latency_to_target`: the critical-step budget each policy needs to reach `target`, null when it never does. */
export interface LatencyToTarget {
  /** The r_perf target. */
  readonly target: number;
  /** Budget the trained policy needs, or null when it never reaches the target. */
  readonly policy: number | null;
  /** Budget the always-serial policy needs, or null when it never reaches the target. */
  readonly serial: number | null;
}

/** `summary.json` (spec §6). */
export interface RunSummary {
  /** The preset the run started from (or `custom`). */
  readonly preset: string;
  /** The run's seed. */
  readonly seed: number;
  /** Training steps run. */
  readonly steps: number;
  /** The trained policy, greedy, on held-out tasks. */
  readonly final: FinalMetrics;
  /** The always-serial scripted policy on the same tasks. */
  readonly baseline_serial: { readonly r_perf: number; readonly critical_steps: number };
  /** Critical-step budget needed per r_perf target. */
  readonly latency_to_target: readonly LatencyToTarget[];
}

/** A run folder's contents. */
export interface RunData {
  /** The folder. */
  readonly dir: string;
  /** `config.json` as written by the trainer. */
  readonly config: Readonly<Record<string, unknown>>;
  /** `metrics.jsonl`, in file order. */
  readonly metrics: readonly MetricsRow[];
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

function nullableFinite(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ParlInputError(field, value, 'a finite number or null');
  return value;
}

/** Check a parsed `summary.json`. @throws {@link ParlInputError} naming the field */
export function validateSummary(value: unknown): RunSummary {
  const s = requireObject(value, 'summary');
  const preset = s['preset'];
  if (typeof preset !== 'string') throw new ParlInputError('preset', preset, 'a string');
  const final = requireObject(s['final'], 'final');
  const base = requireObject(s['baseline_serial'], 'baseline_serial');
  const finalField = (k: keyof FinalMetrics): number => requireFinite(final[k], fieldPath('final', k));
  return {
    preset,
    seed: requireFinite(s['seed'], 'seed'),
    steps: requireFinite(s['steps'], 'steps'),
    final: {
      r_perf: finalField('r_perf'),
      critical_steps: finalField('critical_steps'),
      mean_width: finalField('mean_width'),
      finish_rate: finalField('finish_rate'),
      success_rate: finalField('success_rate'),
    },
    baseline_serial: {
      r_perf: requireFinite(base['r_perf'], 'baseline_serial.r_perf'),
      critical_steps: requireFinite(base['critical_steps'], 'baseline_serial.critical_steps'),
    },
    latency_to_target: requireArray(s['latency_to_target'], 'latency_to_target').map((row, i) => {
      const f = fieldPath('latency_to_target', i);
      const r = requireObject(row, f);
      return {
        target: requireFinite(r['target'], fieldPath(f, 'target')),
        policy: nullableFinite(r['policy'], fieldPath(f, 'policy')),
        serial: nullableFinite(r['serial'], fieldPath(f, 'serial')),
      };
    }),
  };
}

/** Check one parsed `metrics.jsonl` line. @throws {@link ParlInputError} naming the field */
export function validateMetricsRow(value: unknown): MetricsRow {
  const row = requireObject(value, 'metrics');
  const out: Record<string, number> = {};
  for (const key of METRIC_FIELDS) out[key] = requireFinite(row[key], key);
  return out as MetricsRow;
}

/**
 * Read and check a run folder.
 *
 * @throws {@link CliError} when the folder or a file is missing or not JSON
 * @throws {@link ParlInputError} naming file, line and field when a value is wrong
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
  const metrics: MetricsRow[] = [];
  for await (const item of readRecords(createReadStream(metricsPath))) {
    const location = `metrics.jsonl ${item.location}`;
    if (isUnreadable(item)) throw item.error.at(location);
    metrics.push(located(location, () => validateMetricsRow(item.value)));
  }
  return {
    dir,
    config: located('config.json', () => requireObject(configValue, 'config')),
    metrics,
    summary: located('summary.json', () => validateSummary(summaryValue)),
  };
}
