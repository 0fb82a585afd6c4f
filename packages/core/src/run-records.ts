/**
 * The records of a training run folder (spec §6): one `metrics.jsonl` line per training step
 * and `summary.json`, as types and as validators for files read back from disk.
 *
 * @module
 */
import { ParlInputError, fieldPath, requireArray, requireFinite, requireObject } from './errors.js';

/** The fields of one `metrics.jsonl` line (spec §6), in their fixed order. */
export const STEP_METRIC_FIELDS = [
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

/**
 * One `metrics.jsonl` line: the training step, λ1 and λ2 at it, and the means over the step's
 * rollouts of the reward terms, critical steps, group width, finish rate and success rate.
 */
export type StepMetrics = { readonly [K in (typeof STEP_METRIC_FIELDS)[number]]: number };

/** `summary.json`'s `final`: the trained policy, acting greedily, on held-out evaluation tasks. */
export interface FinalMetrics {
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps per episode. */
  readonly critical_steps: number;
  /** Mean size of the groups launched. */
  readonly mean_width: number;
  /** Share of sub-agents that finished their subtasks. */
  readonly finish_rate: number;
  /** Share of episodes that succeeded. */
  readonly success_rate: number;
}

/** `summary.json`'s `baseline_serial`: the always-serial scripted policy on the same tasks. */
export interface BaselineMetrics {
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps per episode. */
  readonly critical_steps: number;
}

/** One row of `latency_to_target`: the critical-step budget each policy needs to reach `target`. */
export interface LatencyToTarget {
  /** The r_perf target. */
  readonly target: number;
  /** Budget the trained policy needs; null when it never reaches the target. */
  readonly policy: number | null;
  /** Budget the always-serial policy needs; null when it never reaches the target. */
  readonly serial: number | null;
}

/** `summary.json` (spec §6). */
export interface RunSummary {
  /** The preset the run started from. */
  readonly preset: string;
  /** The run's seed. */
  readonly seed: number;
  /** Training steps run. */
  readonly steps: number;
  /** The trained policy on held-out tasks. */
  readonly final: FinalMetrics;
  /** The always-serial policy on the same tasks. */
  readonly baseline_serial: BaselineMetrics;
  /** Critical-step budget needed per r_perf target. */
  readonly latency_to_target: readonly LatencyToTarget[];
}

function nullableFinite(value: unknown, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ParlInputError(field, value, 'a finite number or null');
  return value;
}

/**
 * Check one parsed `metrics.jsonl` line and return it with exactly the spec §6 fields.
 *
 * @throws {@link ParlInputError} naming the field, e.g. `critical_steps must be a finite number, got null`
 */
export function validateStepMetrics(value: unknown): StepMetrics {
  const row = requireObject(value, 'metrics');
  const out: Record<string, number> = {};
  for (const key of STEP_METRIC_FIELDS) out[key] = requireFinite(row[key], key);
  return out as StepMetrics;
}

/**
 * Check a parsed `summary.json` and return it with exactly the spec §6 fields.
 *
 * @throws {@link ParlInputError} naming the field path, e.g. `latency_to_target[2].policy`
 */
export function validateRunSummary(value: unknown): RunSummary {
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
